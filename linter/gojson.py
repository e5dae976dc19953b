"""Go's ``encoding/json`` syntax check, with its exact error texts and byte offsets.

kube-scheduler decodes a config that starts with ``{`` as JSON, and the first thing it does with
it is ``json.Unmarshal`` (``SimpleMetaFactory.Interpret``), which validates the whole input first.
JSON is not YAML: a trailing comma, a comment, a single-quoted string or a second document after
the object are all errors there, although a YAML parser accepts them. ``syntax_error`` walks the
text the way Go's scanner does and returns its message (``invalid character '}' looking for
beginning of object key string``, ``unexpected end of JSON input``) with the offset of the byte it
stopped at.
"""

from __future__ import annotations

from dataclasses import dataclass

_SPACE = " \t\r\n"  # Go's isSpace
_HEX = "0123456789abcdefABCDEF"
_END_OF_INPUT = "unexpected end of JSON input"


@dataclass(frozen=True)
class JSONSyntaxError:
    message: str
    offset: int  # of the offending byte, in the UTF-8 encoding of the text


class _Stop(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message, self.offset = message, offset


def quote_char(c: int) -> str:
    """Go's ``quoteChar``: the byte as a quoted character for an error message."""
    if c == ord("'"):
        return "'\\''"
    if c == ord('"'):
        return "'\"'"
    ch = chr(c)
    if ch.isprintable():
        return f"'{ch}'"
    escapes = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
    if ch in escapes:
        return f"'{escapes[ch]}'"
    return f"'\\x{c:02x}'" if c < 0x80 else f"'\\u{c:04x}'"


class _Scanner:
    def __init__(self, data: bytes) -> None:
        self.data, self.i = data, 0

    def peek(self) -> int | None:
        return self.data[self.i] if self.i < len(self.data) else None

    def fail(self, context: str) -> _Stop:
        c = self.peek()
        if c is None:
            return _Stop(_END_OF_INPUT, self.i)
        return _Stop(f"invalid character {quote_char(c)} {context}", self.i)

    def skip_space(self) -> None:
        while (c := self.peek()) is not None and chr(c) in _SPACE:
            self.i += 1

    def value(self) -> None:
        self.skip_space()
        c = self.peek()
        if c == ord("{"):
            self.obj()
        elif c == ord("["):
            self.array()
        elif c == ord('"'):
            self.string()
        elif c is not None and (c == ord("-") or ord("0") <= c <= ord("9")):
            self.number()
        elif c is not None and chr(c) in "tfn":
            self.literal({"t": "true", "f": "false", "n": "null"}[chr(c)])
        else:
            raise self.fail("looking for beginning of value")

    def obj(self) -> None:
        self.i += 1
        self.skip_space()
        if self.peek() == ord("}"):
            self.i += 1
            return
        while True:
            self.skip_space()
            if self.peek() != ord('"'):
                raise self.fail("looking for beginning of object key string")
            self.string()
            self.skip_space()
            if self.peek() != ord(":"):
                raise self.fail("after object key")
            self.i += 1
            self.value()
            self.skip_space()
            if self.peek() == ord(","):
                self.i += 1
                continue
            if self.peek() == ord("}"):
                self.i += 1
                return
            raise self.fail("after object key:value pair")

    def array(self) -> None:
        self.i += 1
        self.skip_space()
        if self.peek() == ord("]"):
            self.i += 1
            return
        while True:
            self.value()
            self.skip_space()
            if self.peek() == ord(","):
                self.i += 1
                continue
            if self.peek() == ord("]"):
                self.i += 1
                return
            raise self.fail("after array element")

    def string(self) -> None:
        self.i += 1
        while True:
            c = self.peek()
            if c is None:
                raise self.fail("in string literal")
            self.i += 1
            if c == ord('"'):
                return
            if c < 0x20:
                self.i -= 1
                raise self.fail("in string literal")
            if c == ord("\\"):
                e = self.peek()
                if e is None or chr(e) not in 'bfnrt\\/"u':
                    raise self.fail("in string escape code")
                self.i += 1
                if e == ord("u"):
                    for _ in range(4):
                        h = self.peek()
                        if h is None or chr(h) not in _HEX:
                            raise self.fail("in \\u hexadecimal character escape")
                        self.i += 1

    def digits(self) -> int:
        start = self.i
        while (c := self.peek()) is not None and ord("0") <= c <= ord("9"):
            self.i += 1
        return self.i - start

    def number(self) -> None:
        if self.peek() == ord("-"):
            self.i += 1
        if self.peek() == ord("0"):
            self.i += 1
        elif not self.digits():
            raise self.fail("in numeric literal")
        if self.peek() == ord("."):
            self.i += 1
            if not self.digits():
                raise self.fail("after decimal point in numeric literal")
        if self.peek() in (ord("e"), ord("E")):
            self.i += 1
            if self.peek() in (ord("+"), ord("-")):
                self.i += 1
            if not self.digits():
                raise self.fail("in exponent of numeric literal")

    def literal(self, word: str) -> None:
        self.i += 1
        for expected in word[1:]:
            if self.peek() != ord(expected):
                raise self.fail(f"in literal {word} (expecting {quote_char(ord(expected))})")
            self.i += 1


def syntax_error(text: str) -> JSONSyntaxError | None:
    """Go's ``json.Unmarshal`` syntax error for ``text``, or None when it is one valid JSON value."""
    scanner = _Scanner(text.encode("utf-8", "surrogatepass"))
    try:
        scanner.value()
        scanner.skip_space()
        if scanner.peek() is not None:
            raise scanner.fail("after top-level value")
    except _Stop as stop:
        return JSONSyntaxError(stop.message, stop.offset)
    return None


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column in code points) of a UTF-8 byte offset into ``text``."""
    prefix = text.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "replace")
    line = prefix.count("\n") + 1
    return line, len(prefix) - (prefix.rfind("\n") + 1) + 1
