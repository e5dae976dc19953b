"""Strict decoding of a KubeSchedulerConfiguration the way kube-scheduler 1.36 loads its file.

The scheduler converts YAML to JSON (sigs.k8s.io/yaml: map keys sorted, floats printed by
encoding/json; a config written as JSON is decoded as written, see :mod:`linter.jsondocument`),
reads apiVersion/kind, then decodes strictly into the v1 Go types
(``types.py``) and afterwards decodes every ``pluginConfig[].args`` of an in-tree plugin that
has an args kind. The result says what the scheduler would print and where each problem is:

* a *fatal* error (type mismatch, bad duration, unregistered kind): the scheduler prints only
  that one;
* otherwise *strict* errors (duplicate keys, unknown fields, inside args too), printed together
  after ``strict decoding error: ``. A duplicate key of a YAML file is yaml.v2's error (made in
  ``stages.py``); one of a JSON file is the JSON decoder's ``duplicate field "<path>"``, made here
  in document order among the unknown-field errors.

``decoded`` is the typed data with unknown fields and nulls dropped and numbers converted the
Go way; it keeps the document's pointers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linter.formats.kubesched.issues import SCHEME
from linter.formats.kubesched.types import ARGS_TYPES, GoType
from linter.gobase64 import CorruptInputError, std_decode
from linter.gofmt import DurationError, go_quote, json_number, parse_duration
from linter.goint import int_bounds
from linter.goquantityparse import unmarshal_quantity_error
from linter.jsondocument import JSONFloat, JSONObject
from linter.schema import dotted
from linter.source import Pointer

_MAX_STRICT_ERRORS = 100  # sigs.k8s.io/json stops collecting strict errors there
_FLOAT32_MAX = 3.4028234663852886e38
_FLOAT64_MAX = 1.7976931348623157e308
_FIND_KIND = ('struct { APIVersion string "json:\\"apiVersion,omitempty\\""; '
              'Kind string "json:\\"kind,omitempty\\"" }')


@dataclass(frozen=True)
class DecodeError:
    """One error as the scheduler words it when it is the only one (``text``), and where it is."""

    text: str
    pointer: Pointer
    on_key: bool = False
    kind: str = "type"  # type | unknown-field | duplicate-key | args-kind
    hint: str = ""  # binpack-lint's advice after the scheduler's text


@dataclass
class _Walk:
    strict: list[DecodeError] = field(default_factory=list)
    type_error: DecodeError | None = None
    abort: DecodeError | None = None
    out: dict[str, Any] = field(default_factory=dict)

    @property
    def fatal(self) -> DecodeError | None:
        return self.abort or self.type_error


def _json_kind(value: Any) -> str:
    """The JSON kind encoding/json names in an ``UnmarshalTypeError`` (``cannot unmarshal <kind>``)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object" if isinstance(value, dict) else "array"


def _strict_path(path: list[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _members(value: dict[str, Any]) -> list[tuple[str, Any]]:
    """The members of an object in the order the scheduler's JSON decoder meets them: as written (duplicates
    included) in a config written as JSON; sorted in one written as YAML, which sigs.k8s.io/yaml turned into
    JSON with sorted keys (and no duplicates)."""
    if isinstance(value, JSONObject):
        return value.members
    return sorted(value.items())


def _merge(old: Any, new: Any, t: GoType) -> Any:
    """A field's value after a duplicate key: encoding/json decodes the second value *into* the first, so
    struct fields and slice elements the second one does not set keep what the first one gave them."""
    if t.kind == "struct" and isinstance(old, dict) and isinstance(new, dict):
        merged = dict(old)
        for key, item in new.items():
            merged[key] = _merge(merged[key], item, t.fields[key]) if key in merged else item
        return merged
    if t.kind == "slice" and t.elem is not None and isinstance(old, list) and isinstance(new, list):
        return [_merge(old[i], item, t.elem) if i < len(old) else item for i, item in enumerate(new)]
    if t.kind == "map" and isinstance(old, dict) and isinstance(new, dict):
        return {**old, **new}
    return new


class _Decoder:
    def __init__(self, base: Pointer) -> None:
        self.base = base
        self.walk = _Walk()
        self.seen_strict: set[str] = set()

    def type_error(self, value_desc: str, t: GoType, struct: str, fields: list[str], rel: list[str | int]) -> None:
        if self.walk.type_error is not None:
            return
        where = f"Go struct field {struct}.{'.'.join(fields)}" if struct or fields else "Go value"
        text = f"json: cannot unmarshal {value_desc} into {where} of type {t.go}"
        self.walk.type_error = DecodeError(text, (*self.base, *rel))

    def value(self, value: Any, t: GoType, struct: str, fields: list[str], rel: list[str | int]) -> Any:
        """Decode ``value`` as ``t``; returns the Go-normalised value (None = zero/absent)."""
        if self.walk.abort is not None or value is None:
            return None
        jk = _json_kind(value)
        if t.kind == "raw":
            return value
        if t.kind == "quantity":  # resource.Quantity is a json.Unmarshaler: its error stops the decoding
            error = unmarshal_quantity_error(value)
            if error is not None:
                self.walk.abort = DecodeError(error, (*self.base, *rel))
                return None
            return value
        if t.kind == "duration":
            if jk != "string":
                self.walk.abort = self.walk.abort or DecodeError(
                    f"json: cannot unmarshal {jk} into Go struct field {struct}.{'.'.join(fields)} of type string",
                    (*self.base, *rel))
                return None
            try:
                return parse_duration(value)
            except DurationError as exc:
                self.walk.abort = DecodeError(str(exc), (*self.base, *rel))
                return None
        if t.kind == "struct":
            if jk != "object":
                self.type_error(jk, t, struct, fields, rel)
                return None
            return self.struct(value, t, fields, rel)
        if t.kind in ("slice", "bytes"):
            if t.kind == "bytes" and jk == "string":
                try:
                    return std_decode(value)
                except CorruptInputError as exc:
                    self.walk.type_error = self.walk.type_error or DecodeError(
                        str(exc), (*self.base, *rel), hint=_bytes_hint((*self.base, *rel)))
                    return None
            if jk != "array":
                self.type_error(jk, t, struct, fields, rel)
                return None
            assert t.elem is not None
            out = []
            for i, item in enumerate(value):
                got = self.value(item, t.elem, struct, fields, [*rel, i])
                out.append(_zero(t.elem) if got is None else got)
            return bytes(out) if t.kind == "bytes" else out  # encoding/json fills a []byte element by element
        if t.kind == "map":
            if jk != "object":
                self.type_error(jk, t, struct, fields, rel)
                return None
            assert t.elem is not None
            entries: dict[str, Any] = {}
            for k, v in _members(value):
                if k in entries:
                    self.duplicate(rel, k)
                got = self.value(v, t.elem, struct, fields, [*rel, k])  # a map value is decoded afresh
                entries[k] = _zero(t.elem) if got is None else got  # null stores the element's zero value
            return entries
        if t.kind == "string":
            if jk != "string":
                self.type_error(jk, t, struct, fields, rel)
                return None
            return value
        if t.kind == "bool":
            if jk != "bool":
                self.type_error(jk, t, struct, fields, rel)
                return None
            return value
        if jk != "number":
            self.type_error(jk, t, struct, fields, rel)
            return None
        literal = value.literal if isinstance(value, JSONFloat) else json_number(value)
        if t.kind == "float":
            number = float(literal)
            if abs(number) > (_FLOAT32_MAX if t.bits == 32 else _FLOAT64_MAX):
                self.type_error(f"number {literal}", t, struct, fields, rel)
                return None
            return number
        try:
            number = int(literal)
        except ValueError:
            self.type_error(f"number {literal}", t, struct, fields, rel)
            return None
        low, high = (0, 255) if t.go == "uint8" else int_bounds(t.bits)
        if not low <= number <= high:
            self.type_error(f"number {literal}", t, struct, fields, rel)
            return None
        return number

    def strict(self, error: DecodeError) -> None:
        """Keep a strict error the way sigs.k8s.io/json does: each text once, at most 100 per decode."""
        if len(self.walk.strict) < _MAX_STRICT_ERRORS and error.text not in self.seen_strict:
            self.seen_strict.add(error.text)
            self.walk.strict.append(error)

    def duplicate(self, rel: list[str | int], key: str) -> None:
        self.strict(DecodeError(f"duplicate field {go_quote(_strict_path([*rel, key]))}", (*self.base, *rel, key),
                                on_key=True, kind="duplicate-key"))

    def struct(self, value: dict[str, Any], t: GoType, fields: list[str], rel: list[str | int]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        seen: set[str] = set()
        for key, item in _members(value):
            if self.walk.abort is not None:
                break
            sub = t.fields.get(key)
            if sub is None:
                self.strict(DecodeError(f"unknown field {go_quote(_strict_path([*rel, key]))}",
                                        (*self.base, *rel, key), on_key=True, kind="unknown-field"))
                continue
            if key in seen:
                self.duplicate(rel, key)
            seen.add(key)
            got = self.value(item, sub, t.name, [*fields, key], [*rel, key])
            if key in out:
                got = None if got is None else _merge(out.pop(key), got, sub)
            if got is not None:
                out[key] = got
        return out


def _zero(t: GoType) -> Any:
    return {"struct": {}, "string": "", "int": 0, "float": 0.0, "bool": False, "map": {}}.get(t.kind)


def decode_object(data: dict[str, Any], root: GoType) -> tuple[dict[str, Any], _Walk]:
    decoder = _Decoder(())
    out = decoder.struct(data, root, [], [])
    return out, decoder.walk


def type_meta_keys(data: dict[str, Any]) -> dict[str, str]:
    """The key the scheduler's apiVersion/kind probe reads for each of ``apiVersion`` and ``kind``.

    The probe is the standard ``encoding/json``, which matches keys case-insensitively and lets each
    matching key overwrite the last (a null leaves it as it was), so ``Kind:`` is read as the kind; the
    typed decode after it is case-sensitive and reports ``Kind`` as an unknown field."""
    found: dict[str, str] = {}
    for key, value in _members(data):
        folded = key.lower()
        for name in ("apiVersion", "kind"):
            if folded == name.lower() and value is not None:
                found[name] = key
    return found


def find_kind_error(data: Any) -> tuple[str, str | None] | None:
    """What probing apiVersion/kind (``json.Unmarshal`` into a TypeMeta struct) rejects: (text, key) or None.

    ``key`` is the offending ``apiVersion``/``kind`` key as written, None when ``data`` is not an object.
    """
    prefix = "couldn't get version/kind; json parse error: json: cannot unmarshal"
    if not isinstance(data, dict):
        return f"{prefix} {_json_kind(data)} into Go value of type {_FIND_KIND}", None
    for name, key in type_meta_keys(data).items():
        value = data[key]
        if not isinstance(value, str):
            return f"{prefix} {_json_kind(value)} into Go struct field .{name} of type string", key
    return None


def decode_args(name: str, raw: Any, base: Pointer, types: Mapping[str, GoType] | None = None,
                kinds: frozenset[str] | None = None) -> tuple[dict[str, Any] | None, DecodeError | None,
                                                              list[DecodeError]]:
    """Decode one plugin's args as ``<name>Args``: (typed args, fatal error, strict errors).

    ``types``/``kinds``: the args types and kinds the scheduler's scheme knows (default: in-tree).
    """
    t = (types or ARGS_TYPES)[name]
    if raw is None:
        return {}, None, []
    meta_error = find_kind_error(raw)
    if meta_error is not None:
        text, key = meta_error
        return None, DecodeError(text, base if key is None else (*base, key), kind="args-kind"), []
    kind_error = args_kind_error(name, raw.get("apiVersion") or "", raw.get("kind") or "", kinds)
    if kind_error is not None:
        # Another registered args kind is decoded into first: its decode error comes before the mismatch.
        other = (types or ARGS_TYPES).get(str(raw.get("kind")).removesuffix("Args"))
        fatal = _decode(raw, other, base).fatal if other is not None and _ARGS_MISMATCH in kind_error else None
        return None, fatal or DecodeError(kind_error, base, kind="args-kind"), []
    walk = _decode(raw, t, base)
    return walk.out, walk.fatal, walk.strict


def _decode(raw: dict[str, Any], t: GoType, base: Pointer) -> _Walk:
    decoder = _Decoder(base)
    decoder.walk.out = decoder.struct(raw, t, [], [])
    return decoder.walk


GROUP = "kubescheduler.config.k8s.io"
_ARGS_MISMATCH = " were not of type "
ARGS_KINDS = {f"{n}Args" for n in ARGS_TYPES}


def args_kind_error(name: str, api_version: str, kind: str, kinds: frozenset[str] | None = None) -> str | None:
    """The error for args whose own apiVersion/kind does not decode to ``<name>Args``."""
    want = f"{name}Args"
    group, _, version = api_version.rpartition("/") if "/" in api_version else ("", "", api_version)
    if api_version.count("/") > 1:
        group, version = "", ""
    kind = kind or want
    if not version and not group:
        group, version = GROUP, "v1"
    elif not version and group == GROUP:
        version = "v1"
    gv = f"{group}/{version}" if group else version
    if gv != f"{GROUP}/v1" or kind not in (kinds or ARGS_KINDS) | {"KubeSchedulerConfiguration"}:
        return f"no kind {go_quote(kind)} is registered for version {go_quote(gv)} {SCHEME}"
    if kind != want:
        return f"args for plugin {name}{_ARGS_MISMATCH}{want}.{GROUP}, got {kind}.{GROUP}"
    return None


def _bytes_hint(pointer: Pointer) -> str:
    """What to write in a ``[]byte`` field (an extender's ``tlsConfig`` ``caData``/``certData``/``keyData``)."""
    field = str(pointer[-1]) if pointer else ""
    instead = f", or use {field[:-4]}File" if field.endswith("Data") else ""
    return f" ({dotted(pointer)} is bytes: write the base64 of the PEM text{instead})"
