"""Go's ``base64.StdEncoding.Decode``, which ``encoding/json`` uses for a string decoded into ``[]byte``.

It differs from Python's strict decoding in two ways users meet: ``\\n`` and ``\\r`` anywhere are skipped
(a certificate's base64 wrapped over lines in a YAML block scalar decodes), and a refusal names the
offset of the offending byte (``illegal base64 data at input byte 4``), not always 0.
"""

from __future__ import annotations

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {byte: i for i, byte in enumerate(_ALPHABET)}
_NEWLINES = (ord("\n"), ord("\r"))
_PAD = ord("=")


class CorruptInputError(ValueError):
    """Go's ``base64.CorruptInputError``: ``offset`` is the byte of the input where decoding failed."""

    def __init__(self, offset: int) -> None:
        super().__init__(f"illegal base64 data at input byte {offset}")
        self.offset = offset


def std_decode(text: str) -> bytes:
    """The bytes ``text`` (taken as UTF-8) decodes to, or ``CorruptInputError`` with Go's offset."""
    src = text.encode("utf-8", "surrogatepass")
    out = bytearray()
    si = 0
    while si < len(src):
        si, chunk = _quantum(src, si)
        out += chunk
    return bytes(out)


def _quantum(src: bytes, si: int) -> tuple[int, bytes]:
    """Up to 4 base64 characters from ``si`` (newlines skipped): the next index and their bytes."""
    digits: list[int] = []
    while len(digits) < 4:
        if si == len(src):
            if not digits:
                return si, b""
            raise CorruptInputError(si - len(digits))  # StdEncoding pads, so a short last quantum is corrupt
        byte = src[si]
        si += 1
        if byte in _VALUE:
            digits.append(_VALUE[byte])
            continue
        if byte in _NEWLINES:
            continue
        if byte != _PAD or len(digits) < 2:
            raise CorruptInputError(si - 1)
        if len(digits) == 2:  # a second '=' must follow, newlines aside
            si = _skip_newlines(src, si)
            if si == len(src):
                raise CorruptInputError(len(src))
            if src[si] != _PAD:
                raise CorruptInputError(si - 1)
            si += 1
        si = _skip_newlines(src, si)
        if si < len(src):
            raise CorruptInputError(si)  # anything after the padding
        break
    count = len(digits)
    value = sum(d << (18 - 6 * i) for i, d in enumerate(digits))
    return si, value.to_bytes(3, "big")[: count - 1]


def _skip_newlines(src: bytes, si: int) -> int:
    while si < len(src) and src[si] in _NEWLINES:
        si += 1
    return si
