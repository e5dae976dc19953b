"""Run a shipped JSON Schema over a parsed Document and report errors at their YAML positions.

Public API (other formats use it):

* ``validate(document, schema_name) -> list[SchemaError]`` -- every error of the schema
  ``schemas/<schema_name>.json`` (Draft 2020-12) against ``document.data``, sorted by
  position. ``SchemaError`` is a frozen ``(pointer, message, line, column, key)`` record:
  ``pointer`` is the JSON pointer (tuple of str/int) of the offending node, ``line``/``column``
  are 1-based *file* coordinates (``Document.locate`` maps ConfigMap-embedded documents),
  ``key`` is True when the position is the mapping key (unknown/forbidden property).
* ``errors(data, schema_name) -> list[tuple[Pointer, str]]`` -- the same without positions.
* ``validator(schema_name)`` -- the cached ``Draft202012Validator`` (built once per schema).

A document is first checked by the schema compiled with :mod:`linter.schemacheck` (a yes/no
answer equal to jsonschema's ``is_valid``, much faster); only an invalid one goes through
jsonschema, so every message below is still built from jsonschema's own errors.

Messages are short and name the field, e.g. ``profiles[0].plugins.score: unknown field "enable"``.
An additionalProperties error is reported once per unknown key, on the key itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import schemas
from linter.schemacheck import Check, compile_schema
from linter.source import Document, Pointer

if TYPE_CHECKING:  # importing jsonschema costs ~40 ms: only pay it when a schema really runs
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

_TYPE_NAMES = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
               "number": "a number", "boolean": "a boolean", "null": "null"}


@dataclass(frozen=True)
class SchemaError:
    pointer: Pointer
    message: str
    line: int
    column: int
    key: bool = False


@lru_cache(maxsize=32)
def validator(schema_name: str) -> Draft202012Validator:
    # No check_schema() here: validating the 73 kB kube-scheduler schema against the
    # meta-schema costs ~100 ms on every CLI start; the tests check every shipped schema instead.
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schemas.load(schema_name))


@lru_cache(maxsize=32)
def fast_check(schema_name: str) -> Check | None:
    """The compiled validity check of the schema, or None when it uses a keyword the compiler lacks."""
    return compile_schema(schemas.load(schema_name))


def dotted(pointer: Pointer) -> str:
    """``("profiles", 0, "plugins")`` -> ``profiles[0].plugins`` (the scheduler's path style)."""
    out = ""
    for part in pointer:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<root>"


def errors(data: Any, schema_name: str) -> list[tuple[Pointer, str]]:
    """(pointer, message) for every schema error in ``data``; unknown keys get the key's pointer."""
    return [(p, m) for p, m, _ in _raw_errors(data, schema_name)]


def type_errors(data: Any, schema_name: str) -> list[tuple[Pointer, str]]:
    """``errors`` without the unknown fields: what a Go decoder refuses even when it drops unknown fields."""
    return [(p, m) for p, m, on_key in _raw_errors(data, schema_name) if not on_key]


def validate(document: Document, schema_name: str) -> list[SchemaError]:
    """Every schema error of ``document.data``, positioned in the file, sorted by position."""
    out: list[SchemaError] = []
    for pointer, message, on_key in _raw_errors(document.data, schema_name):
        line, col = document.locate(pointer, key=on_key)
        out.append(SchemaError(pointer, message, line, col, on_key))
    return sorted(out, key=lambda e: (e.line, e.column, e.message))


def _raw_errors(data: Any, schema_name: str) -> Iterator[tuple[Pointer, str, bool]]:
    check = fast_check(schema_name)
    if check is not None and check(data):  # nearly every real document: no jsonschema run, no import
        return
    for error in validator(schema_name).iter_errors(data):
        yield from _describe(error)


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """For oneOf/anyOf, the errors of the branch that got furthest (deepest path), else the error itself."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        deepest = max(len(e.absolute_path) for e in error.context)
        if deepest > len(error.absolute_path):
            for sub in error.context:
                if len(sub.absolute_path) == deepest:
                    yield from _leaves(sub)
            return
    yield error


def _describe(top: ValidationError) -> Iterator[tuple[Pointer, str, bool]]:
    for error in _leaves(top):
        pointer: Pointer = tuple(error.absolute_path)
        where = dotted(pointer)
        kind = error.validator
        expected: Any = error.validator_value
        if kind == "additionalProperties" and isinstance(error.instance, dict):
            node: Any = error.schema
            allowed = node.get("properties", {})
            patterns = node.get("patternProperties", {})
            for key in error.instance:
                if key not in allowed and not any(re.search(p, key) for p in patterns):
                    yield (*pointer, key), f"unknown field {_q(dotted((*pointer, key)))}", True
        elif kind == "unevaluatedProperties" and isinstance(error.instance, dict):
            yield pointer, f"{where}: {error.message}", False
        elif kind == "type":
            wanted = expected
            names = [wanted] if isinstance(wanted, str) else list(wanted)
            text = " or ".join(_TYPE_NAMES.get(n, n) for n in names)
            yield pointer, f"{where}: must be {text}, not {_render(error.instance)}", False
        elif kind == "required":
            missing = [k for k in expected if isinstance(error.instance, dict) and k not in error.instance]
            for key in missing:
                yield pointer, f"{where}: required field {_q(key)} is missing", False
        elif kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            op = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[str(kind)]
            bound = f"must be {op} {expected}"
            yield pointer, f"{where}: {_render(error.instance)} is out of range ({bound})", False
        elif kind == "enum":
            allowed_values = ", ".join(_q(v) for v in expected)
            yield pointer, f"{where}: {_render(error.instance)} is not one of {allowed_values}", False
        elif kind == "const":
            yield pointer, f"{where}: must be {_q(expected)}, not {_render(error.instance)}", False
        elif kind == "minItems":
            yield pointer, f"{where}: needs at least {expected} item(s)", False
        else:
            yield pointer, f"{where}: {error.message}", False


def _q(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else _render(value)


def _render(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return str(value)
