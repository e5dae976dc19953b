"""Go's ``base64.StdEncoding.Decode`` as ``encoding/json`` uses it for a ``[]byte`` field.

It differs from Python's strict decoder in what it accepts and in where it says the input broke:
``\\r`` and ``\\n`` anywhere are skipped, the bits left over in the last quantum are ignored, and an
error names the byte offset Go's ``CorruptInputError`` names (``illegal base64 data at input byte N``):
the bad character, the start of an unfinished last quantum, or what follows the padding.
"""

from __future__ import annotations

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {ord(c): i for i, c in enumerate(_ALPHABET)}
_PAD = ord("=")
_NEWLINES = (ord("\n"), ord("\r"))


class CorruptInput(ValueError):
    def __init__(self, offset: int) -> None:
        super().__init__(f"illegal base64 data at input byte {offset}")
        self.offset = offset


def _skip_newlines(src: bytes, i: int) -> int:
    while i < len(src) and src[i] in _NEWLINES:
        i += 1
    return i


def _quantum(src: bytes, si: int) -> tuple[int, bytes, bool]:
    """One quantum from ``si``: (next index, its bytes, whether it ended the input with padding)."""
    digits: list[int] = []
    while len(digits) < 4:
        if si == len(src):
            if not digits:
                return si, b"", True
            raise CorruptInput(si - len(digits))  # an unfinished quantum without its padding
        ch = src[si]
        si += 1
        if ch in _VALUE:
            digits.append(_VALUE[ch])
            continue
        if ch in _NEWLINES:
            continue
        if ch != _PAD or len(digits) < 2:
            raise CorruptInput(si - 1)
        if len(digits) == 2:  # "==" expected: the second "=" may come after newlines
            si = _skip_newlines(src, si)
            if si == len(src):
                raise CorruptInput(len(src))
            if src[si] != _PAD:
                raise CorruptInput(si - 1)
            si += 1
        si = _skip_newlines(src, si)
        if si < len(src):
            raise CorruptInput(si)  # anything after the padding
        return si, _bits_to_bytes(digits)[: len(digits) - 1], True
    return si, _bits_to_bytes(digits), False


def _bits_to_bytes(digits: list[int]) -> bytes:
    padded = digits + [0] * (4 - len(digits))
    value = padded[0] << 18 | padded[1] << 12 | padded[2] << 6 | padded[3]
    return bytes(((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def go_b64decode(text: str) -> bytes:
    """The bytes Go decodes from ``text``; :class:`CorruptInput` where Go's decoder fails."""
    src = text.encode("utf-8")
    out = bytearray()
    si = 0
    while si < len(src):
        si, chunk, done = _quantum(src, si)
        out += chunk
        if done:
            break
    return bytes(out)
