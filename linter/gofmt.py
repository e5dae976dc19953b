"""Go value formatting and parsing the Kubernetes messages depend on (the one copy in the project).

* ``json_number``: how encoding/json writes a float64 (sigs.k8s.io/yaml turns every YAML
  number into JSON this way before the typed decode, so ``5.0`` arrives as ``5``).
* ``go_quote``: Go's ``%q`` / ``strconv.Quote``; ``go_len``: Go's ``len`` of a string.
* ``parse_duration`` / ``format_duration``: ``time.ParseDuration`` and ``Duration.String``.
* ``FieldError``, ``go_value`` and ``aggregate``: k8s.io/apimachinery field-error rendering and
  the ``[e1, e2]`` join (identical messages printed once).
* ``go_json``: compact JSON as encoding/json writes it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from linter.goint import INT64_MAX


def json_number(value: int | float) -> str:
    """The JSON text encoding/json produces for a YAML number (ints verbatim, floats shortest)."""
    if isinstance(value, bool):
        raise TypeError("bool is not a number")
    if isinstance(value, int):
        return str(value)
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    magnitude = abs(value)
    if 1e-6 <= magnitude < 1e21:
        text = format(Decimal(repr(value)), "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text
    mantissa, _, exponent = repr(value).partition("e")
    if not exponent:  # repr gave positional text; build the exponent form
        mantissa, _, exponent = f"{value:e}".partition("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
    sign = "-" if exponent.startswith("-") else "+"
    digits = exponent.lstrip("+-").lstrip("0") or "0"
    return f"{mantissa}e{sign}{digits}"


def go_quote(text: str) -> str:
    """Go's ``%q`` / ``strconv.Quote``: printable runes kept, the rest escaped as Go does."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch in _GO_ESCAPES:
            out.append(_GO_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif 0xD800 <= code <= 0xDFFF:  # a lone surrogate: Go's JSON decoder made it U+FFFD
            out.append("\ufffd")
        elif not ch.isprintable():  # Python's and Go's "printable" agree (spaces other than ' ' escaped)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def go_len(value: str) -> int:
    """Go's ``len`` of a string: its UTF-8 bytes (a lone surrogate from JSON counts as U+FFFD's three)."""
    return len(value.encode("utf-8", "surrogatepass"))


# --- durations -------------------------------------------------------------------------------

_UNITS = {"ns": 1, "us": 1_000, "µs": 1_000, "μs": 1_000, "ms": 1_000_000, "s": 1_000_000_000,
          "m": 60_000_000_000, "h": 3_600_000_000_000}


class DurationError(ValueError):
    pass


def parse_duration(text: str) -> int:
    """``time.ParseDuration``: nanoseconds, or DurationError carrying Go's message."""
    orig, s = text, text
    neg = False
    if s and s[0] in "+-":
        neg, s = s[0] == "-", s[1:]
    if s == "0":
        return 0
    if not s:
        raise DurationError(f"time: invalid duration {go_quote(orig)}")
    total = Decimal(0)
    while s:
        i = 0
        while i < len(s) and s[i].isdigit():
            i += 1
        whole, s = s[:i], s[i:]
        frac = ""
        if s.startswith("."):
            j = 1
            while j < len(s) and s[j].isdigit():
                j += 1
            frac, s = s[1:j], s[j:]
        if not whole and not frac:
            raise DurationError(f"time: invalid duration {go_quote(orig)}")
        j = 0
        while j < len(s) and s[j] != "." and not s[j].isdigit():
            j += 1
        unit, s = s[:j], s[j:]
        if not unit:
            raise DurationError(f"time: missing unit in duration {go_quote(orig)}")
        if unit not in _UNITS:
            raise DurationError(f"time: unknown unit {go_quote(unit)} in duration {go_quote(orig)}")
        total += Decimal(f"{whole or '0'}.{frac or '0'}") * _UNITS[unit]
    nanos = int(total)
    if nanos > INT64_MAX + (1 if neg else 0):
        raise DurationError(f"time: invalid duration {go_quote(orig)}")
    return -nanos if neg else nanos


def format_duration(nanos: int) -> str:
    """``time.Duration.String``: ``15s``, ``1m30s``, ``1.5s``, ``100ms``, ``0s``."""
    if nanos == 0:
        return "0s"
    sign = "-" if nanos < 0 else ""
    u = abs(nanos)
    if u < 1_000_000_000:
        for unit, size in (("ms", 1_000_000), ("µs", 1_000), ("ns", 1)):
            if u >= size:
                return sign + _frac(u, size) + unit
    hours, rest = divmod(u, 3_600_000_000_000)
    minutes, rest = divmod(rest, 60_000_000_000)
    seconds = _frac(rest, 1_000_000_000) + "s"
    if hours:
        return f"{sign}{hours}h{minutes}m{seconds}"
    if minutes:
        return f"{sign}{minutes}m{seconds}"
    return sign + seconds


def _frac(value: int, size: int) -> str:
    whole, rest = divmod(value, size)
    if not rest:
        return str(whole)
    digits = str(rest).rjust(len(str(size)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"


# --- apimachinery field errors ---------------------------------------------------------------

OMIT = object()


@dataclass(frozen=True)
class Rendered:
    """A value whose rendering is already known (e.g. Go-struct JSON)."""

    text: str


@dataclass(frozen=True)
class FieldError:
    """One ``field.Error``; ``render()`` (and ``str()``) give apimachinery's text."""

    kind: str  # Invalid value | Required value | Duplicate value | Unsupported value | Forbidden
    field: str
    bad_value: Any = OMIT
    detail: str = ""

    def render(self) -> str:
        body = self.kind
        if self.kind not in _VALUELESS_KINDS and self.bad_value is not OMIT:
            body = f"{self.kind}: {go_value(self.bad_value)}"
        if self.detail:
            body += f": {self.detail}"
        return f"{self.field}: {body}"

    def __str__(self) -> str:
        return self.render()


# ErrorBody prints no value for these types even when one was given.
_VALUELESS_KINDS = frozenset({"Required value", "Forbidden", "Too long", "Internal error"})


def go_value(value: Any) -> str:
    """A bad value as ``field.Error`` prints it: numbers and bools bare, strings quoted, else Go's JSON."""
    if isinstance(value, Rendered):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json_number(value)
    if isinstance(value, str):
        return go_quote(value)
    if value is None:
        return "null"
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def go_compact(raw: str) -> str:
    """What ``json.Marshal`` prints for already-encoded JSON (a ``json.Marshaler``'s output, such as a
    ``runtime.Unknown``'s raw bytes): the text with the spaces between tokens dropped and ``<``, ``>``,
    ``&``, U+2028 and U+2029 escaped; everything else, member order and number spelling included, is kept."""
    out: list[str] = []
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in " \t\r\n":
            continue
        out.append(f"\\u{ord(ch):04x}" if ch in "<>&\u2028\u2029" else ch)
    return "".join(out)


def aggregate(messages: Iterable[str]) -> str:
    """``utilerrors.NewAggregate(...).Error()``: one message bare, several as ``[a, b]``, repeats once."""
    seen = list(dict.fromkeys(messages))  # first occurrence order, in linear time
    if len(seen) == 1:
        return seen[0]
    return "[" + ", ".join(seen) + "]" if seen else ""


def supported(values: Iterable[str]) -> str:
    """The ``NotSupported`` detail: ``supported values: "a", "b"``."""
    return "supported values: " + ", ".join(go_quote(v) for v in values)


def _go_json_string(text: str) -> str:
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\b":  # Go 1.22 and later
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif code < 0x20 or ch in "<>&" or code in (0x2028, 0x2029):
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_json(value: Any, *, sort: bool = True) -> str:
    """Compact JSON as Go's encoding/json writes it (map keys sorted, HTML characters escaped)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json_number(value)
    if isinstance(value, str):
        return _go_json_string(value)
    if isinstance(value, dict):
        keys = sorted(value) if sort else list(value)
        return "{" + ",".join(f"{_go_json_string(str(k))}:{go_json(value[k], sort=sort)}" for k in keys) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(go_json(v, sort=sort) for v in value) + "]"
    return _go_json_string(str(value))
