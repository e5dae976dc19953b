"""``mapstructure.Decode`` (github.com/mitchellh/mapstructure v1.5.0, the version Volcano's go.mod pins) for
the values yaml.v2 puts in a Volcano plugin's ``arguments`` and the Go types ``framework.Get[T]`` asks for.

``Decode`` runs without ``WeaklyTypedInput``, ``ErrorUnused`` or a decode hook, so (mapstructure.go):

* ``nil`` sets nothing and is no error: the target keeps its zero value (``decode``, ``input == nil``).
* int/int64/int32 targets take a Go int, a uint64 (converted, so it wraps) or a float64 (truncated toward
  zero); a bool, string, list or map fails (``decodeInt``). A string target takes only a string
  (``decodeString``), a bool target only a bool (``decodeBool``), a float target any number (``decodeFloat``).
* a slice target takes only a list (``decodeSlice``: ``'<name>': source data must be an array or slice,
  got <kind>``); a map target only a map (``decodeMap``: ``'<name>' expected a map, got '<kind>'``); a struct
  target only a map (``decodeStruct``), whose keys match field names exactly or else case-insensitively
  (``strings.EqualFold``); keys that match no field are ignored.
* Errors of list items, map entries and struct fields are gathered (``appendErrors`` flattens nested ones)
  into an ``*Error`` whose text is ``N error(s) decoding:\\n\\n* e1\\n* e2``, the lines sorted. A map entry's
  name is ``<name>[<interface {} Value>]``: ``reflect.Value.String`` of a yaml.v2 map key, whose static type
  is ``interface{}``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from linter.formats.volcano.govalue import go_v
from linter.goint import INT64_MAX, wrap_int64
from linter.source import Pointer


@dataclass(frozen=True)
class GoType:
    """A Go type as mapstructure sees it: its kind and its name as ``reflect.Type.String`` prints it."""

    kind: str  # "int", "string", "bool", "float", "slice", "map", "struct"
    name: str
    bits: int = 64  # for "int"
    elem: GoType | None = None  # slice and map element
    fields: tuple[tuple[str, GoType], ...] = ()  # struct fields in declaration order


def slice_of(elem: GoType) -> GoType:
    return GoType("slice", f"[]{elem.name}", elem=elem)


def map_of(key_name: str, elem: GoType) -> GoType:
    """A map with string-kind keys (``string`` or a named string type such as ``v1.ResourceName``)."""
    return GoType("map", f"map[{key_name}]{elem.name}", elem=elem)


INT = GoType("int", "int")
INT32 = GoType("int", "int32", bits=32)
INT64 = GoType("int", "int64")
STRING = GoType("string", "string")
BOOL = GoType("bool", "bool")
FLOAT64 = GoType("float", "float64")
MAP_KEY = "<interface {} Value>"  # reflect.Value.String() of a key of a map[interface{}]interface{}


@dataclass(frozen=True)
class DecodeError:
    """One error line, where its value is written (relative to the decoded value) and the type it failed."""

    text: str
    at: Pointer
    target: GoType


@dataclass
class Decoded:
    """What ``Decode`` leaves in the target and the errors it returns, each with where its value is written
    (relative to the decoded value). ``value`` is None where Go's result is the zero value or, for a float
    beyond int64 converted to an int, depends on the CPU."""

    value: Any = None
    errors: list[DecodeError] = field(default_factory=list)
    gathered: bool = False  # the errors came as an ``*Error`` (a list) rather than one plain error

    def message(self) -> str:
        """The error's text (``err.Error()``), "" when decoding succeeded."""
        if not self.errors:
            return ""
        if not self.gathered:
            return self.errors[0].text
        points = sorted(f"* {error.text}" for error in self.errors)
        return f"{len(points)} error(s) decoding:\n\n" + "\n".join(points)


def go_type_name(value: Any) -> str:
    """``reflect.Type.String`` of what yaml.v2 decodes into ``interface{}``."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "uint64" if value > INT64_MAX else "int"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    return "[]interface {}" if isinstance(value, list) else "map[interface {}]interface {}"


def go_kind(value: Any) -> str:
    """``reflect.Kind.String`` of the same."""
    name = go_type_name(value)
    return {"[]interface {}": "slice", "map[interface {}]interface {}": "map"}.get(name, name)


def _unconvertible(name: str, target: GoType, value: Any) -> str:
    return (f"'{name}' expected type '{target.name}', got unconvertible type '{go_type_name(value)}', "
            f"value: '{go_v(value)}'")


def decode(value: Any, target: GoType) -> Decoded:
    """``mapstructure.Decode(value, &result)`` with ``result`` of type ``target``."""
    return _decode("", value, target, ())


def _decode(name: str, value: Any, target: GoType, at: Pointer) -> Decoded:
    if value is None:
        return Decoded()
    match target.kind:
        case "int":
            return _int(name, value, target, at)
        case "float":
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return Decoded(float(value))
        case "string":
            if isinstance(value, str):
                return Decoded(value)
        case "bool":
            if isinstance(value, bool):
                return Decoded(value)
        case "slice":
            return _slice(name, value, target, at)
        case "map":
            return _map(name, value, target, at)
        case "struct":
            return _struct(name, value, target, at)
    return Decoded(errors=[DecodeError(_unconvertible(name, target, value), at, target)])


def _int(name: str, value: Any, target: GoType, at: Pointer) -> Decoded:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return Decoded(errors=[DecodeError(_unconvertible(name, target, value), at, target)])
    if isinstance(value, float):
        if not math.isfinite(value) or not -(2.0 ** 63) <= value < 2.0 ** 63:
            return Decoded()  # Go's int64(f) of such a float is implementation-dependent
        value = math.trunc(value)
    # reflect's SetInt stores the int64 in a field of the target's width: Go's two's-complement truncation
    number = wrap_int64(value)
    if target.bits < 64:
        number &= (1 << target.bits) - 1
        number -= (1 << target.bits) if number >= 1 << (target.bits - 1) else 0
    return Decoded(number)


def _slice(name: str, value: Any, target: GoType, at: Pointer) -> Decoded:
    if not isinstance(value, list):
        return Decoded(errors=[DecodeError(f"'{name}': source data must be an array or slice, got {go_kind(value)}",
                                           at, target)])
    assert target.elem is not None
    out: list[Any] = []
    errors: list[DecodeError] = []
    for i, item in enumerate(value):
        got = _decode(f"{name}[{i}]", item, target.elem, (*at, i))
        out.append(got.value)
        errors.extend(got.errors)
    return Decoded(out, errors, gathered=bool(errors))


def _map(name: str, value: Any, target: GoType, at: Pointer) -> Decoded:
    if not isinstance(value, dict):
        return Decoded(errors=[DecodeError(f"'{name}' expected a map, got '{go_kind(value)}'", at, target)])
    assert target.elem is not None
    out: dict[str, Any] = {}
    errors: list[DecodeError] = []
    for key, item in value.items():  # the loader's keys are strings, which a string-kind key type takes
        got = _decode(f"{name}[{MAP_KEY}]", item, target.elem, (*at, key))
        if got.errors:
            errors.extend(got.errors)
        else:
            out[key] = got.value
    return Decoded(out, errors, gathered=bool(errors))


def _struct(name: str, value: Any, target: GoType, at: Pointer) -> Decoded:
    if not isinstance(value, dict):
        return Decoded(errors=[DecodeError(f"'{name}' expected a map, got '{go_kind(value)}'", at, target)])
    out: dict[str, Any] = {}
    errors: list[DecodeError] = []
    for field_name, field_type in target.fields:
        key = field_name if field_name in value else next(
            (k for k in value if isinstance(k, str) and equal_fold(k, field_name)), None)
        if key is None:
            continue
        got = _decode(f"{name}.{field_name}" if name else field_name, value[key], field_type, (*at, key))
        out[field_name] = got.value
        errors.extend(got.errors)
    return Decoded(out, errors, gathered=bool(errors))


# strings.EqualFold's simple folding beyond ASCII case: the Kelvin sign folds to k, the long s to s
_FOLDS = {"\u212a": "k", "\u017f": "s"}


def equal_fold(text: str, ascii_name: str) -> bool:
    """``strings.EqualFold(text, ascii_name)`` for an ASCII field name."""
    if len(text) != len(ascii_name):
        return False
    return all(_FOLDS.get(a, a).lower() == b.lower() if ord(a) < 128 or a in _FOLDS else False
               for a, b in zip(text, ascii_name, strict=True))
