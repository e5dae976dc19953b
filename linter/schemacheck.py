"""A yes/no JSON Schema check compiled into Python closures, for the shipped schemas.

``compile_schema(schema)`` turns a Draft 2020-12 schema into a function ``check(instance) -> bool``
that answers exactly what ``Draft202012Validator(schema).is_valid(instance)`` (jsonschema 4.x)
answers, for instances built the way :mod:`linter.source` and ``json.loads`` build them (dict with
str keys, list, str, int, float, bool, None). On a valid document of a shipped schema it is 13 to
30 times faster, so :mod:`linter.schema` asks it first and runs jsonschema only for an invalid
document, whose error messages therefore stay jsonschema's own.

Only the keywords the shipped schemas use are implemented. A schema with any other keyword, a
``$ref`` that is not a JSON pointer into the schema itself, or a keyword value of an unexpected
shape compiles to None, and the caller then always uses jsonschema: nothing is ever skipped.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

Check = Callable[[Any], bool]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

# Keywords jsonschema does not evaluate at all (they are not among its validators).
# "then"/"else" are read by "if"; on their own they do nothing there either.
_IGNORED = frozenset({"title", "description", "examples", "$comment", "default", "$defs", "then", "else"})
# Only meaningful at the root: a nested "$schema" makes jsonschema switch validator class
# (``evolve`` calls ``validator_for``), and a nested "$id" moves the base URI of "$ref".
_ROOT_ONLY = frozenset({"$schema", "$id"})


class _Unsupported(Exception):
    """The schema uses something this compiler does not implement: fall back to jsonschema."""


def compile_schema(schema: Mapping[str, Any] | bool) -> Check | None:
    """``check(instance)`` equal to jsonschema's ``is_valid`` for ``schema``; None if unsupported."""
    if isinstance(schema, Mapping) and schema.get("$schema", DRAFT_2020_12) != DRAFT_2020_12:
        return None  # a "$ref": "#" would then validate with another draft's validator class
    try:
        return _Compiler(schema).compile(schema, root=True)
    except _Unsupported:
        return None


# --- types: jsonschema's draft 2020-12 TypeChecker (_types.py), isinstance-based --------------

def _is_object(x: Any) -> bool:
    return isinstance(x, dict)


def _is_array(x: Any) -> bool:
    return isinstance(x, list)


def _is_string(x: Any) -> bool:
    return isinstance(x, str)


def _is_boolean(x: Any) -> bool:
    return isinstance(x, bool)


def _is_null(x: Any) -> bool:
    return x is None


def _is_number(x: Any) -> bool:
    t = type(x)
    if t is int or t is float:  # the common case, without the slow ABC check
        return True
    return not isinstance(x, bool) and isinstance(x, numbers.Number)


def _is_integer(x: Any) -> bool:
    # draft 6+: a float with an integral value (1.0) is an integer; bool never is
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


_TYPES: dict[str, Check] = {"object": _is_object, "array": _is_array, "string": _is_string, "boolean": _is_boolean,
                            "null": _is_null, "number": _is_number, "integer": _is_integer}


# --- equality: jsonschema._utils.equal (used by enum and const) ------------------------------

_TRUE, _FALSE = object(), object()


def _unbool(x: Any) -> Any:
    # True/False must not equal 1/0 (bool is an int in Python); 1 and 1.0 stay equal
    if x is True:
        return _TRUE
    if x is False:
        return _FALSE
    return x


def _equal(one: Any, two: Any) -> bool:
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(k in two and _equal(v, two[k]) for k, v in one.items())
    return bool(_unbool(one) == _unbool(two))


# --- combinators ---------------------------------------------------------------------------

def _always(x: Any) -> bool:
    return True


def _never(x: Any) -> bool:
    return False


def _all_of(checks: Sequence[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    parts = tuple(checks)

    def check(x: Any) -> bool:
        for part in parts:  # noqa: SIM110 - a plain loop: all() over a generator costs a frame per call
            if not part(x):
                return False
        return True
    return check


def _guarded(guard: Check, inner: Check) -> Check:
    """``inner`` applies only to instances of one type; every other instance passes."""
    def check(x: Any) -> bool:
        return not guard(x) or inner(x)
    return check


class _Compiler:
    def __init__(self, root: Mapping[str, Any] | bool) -> None:
        self.root = root
        # compiled subschemas by identity: shared $defs compile once, and a recursive $ref finds
        # the (not yet finished) entry and goes through a cell filled in when it is done
        self.done: dict[int, Check] = {}

    def compile(self, schema: Any, *, root: bool = False) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise _Unsupported(f"schema of type {type(schema).__name__}")
        key = id(schema)
        if key in self.done:
            return self.done[key]
        cell: list[Check] = []

        def forward(x: Any) -> bool:
            return cell[0](x)

        self.done[key] = forward
        compiled = self._node(schema, root=root)
        cell.append(compiled)
        self.done[key] = compiled
        return compiled

    def _node(self, node: dict[str, Any], *, root: bool) -> Check:
        for keyword in node:
            if keyword not in _KEYWORDS and keyword not in _IGNORED and not (root and keyword in _ROOT_ONLY):
                raise _Unsupported(keyword)
        checks: list[Check] = []
        if "type" in node:
            checks.append(self._type(node["type"]))
        if "enum" in node:
            checks.append(self._enum(node["enum"]))
        if "const" in node:
            checks.append(self._const(node["const"]))
        # keywords that apply to one kind of instance only, each guarded by that kind's test
        for applies, compile_kind in ((_is_object, self._object), (_is_array, self._array),
                                      (_is_string, self._string), (_is_number, self._number)):
            kind_check = compile_kind(node)
            if kind_check is not None:
                checks.append(_guarded(applies, kind_check))
        if "$ref" in node:
            checks.append(self.compile(self._resolve(node["$ref"])))
        if "allOf" in node:
            checks.append(_all_of([self.compile(s) for s in self._schemas(node["allOf"])]))
        if "anyOf" in node:
            checks.append(self._any_of([self.compile(s) for s in self._schemas(node["anyOf"])]))
        if "if" in node:
            checks.append(self._if(node))
        return _all_of(checks)

    # -- keywords for any instance --

    @staticmethod
    def _type(value: Any) -> Check:
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not all(isinstance(n, str) and n in _TYPES for n in names):
            raise _Unsupported(f"type {value!r}")
        preds = tuple(_TYPES[n] for n in names)
        if len(preds) == 1:
            return preds[0]

        def check(x: Any) -> bool:
            return any(p(x) for p in preds)
        return check

    @staticmethod
    def _enum(values: Any) -> Check:
        if not isinstance(values, list):
            raise _Unsupported("enum that is not a list")
        if all(isinstance(v, str) for v in values):
            # equal() is plain == when either side is a str, and no non-str JSON value equals a str
            members = frozenset(values)

            def strings(x: Any) -> bool:
                return isinstance(x, str) and x in members
            return strings
        options = tuple(values)

        def check(x: Any) -> bool:
            return any(_equal(v, x) for v in options)
        return check

    @staticmethod
    def _const(value: Any) -> Check:
        if isinstance(value, str):
            def text(x: Any) -> bool:
                return isinstance(x, str) and x == value
            return text

        def check(x: Any) -> bool:
            return _equal(x, value)
        return check

    @staticmethod
    def _any_of(checks: list[Check]) -> Check:
        parts = tuple(checks)  # an empty anyOf fails every instance, as in jsonschema

        def check(x: Any) -> bool:
            for part in parts:  # noqa: SIM110 - as in _all_of
                if part(x):
                    return True
            return False
        return check

    def _if(self, node: dict[str, Any]) -> Check:
        cond = self.compile(node["if"])
        then = self.compile(node["then"]) if "then" in node else _always
        other = self.compile(node["else"]) if "else" in node else _always

        def check(x: Any) -> bool:
            return then(x) if cond(x) else other(x)
        return check

    # -- object keywords --

    def _object(self, node: dict[str, Any]) -> Check | None:
        checks: list[Check] = []
        props = node.get("properties")
        patterns = node.get("patternProperties")
        if "properties" in node or "patternProperties" in node or "additionalProperties" in node:
            checks.append(self._members(props, patterns, node.get("additionalProperties", True)))
        if "required" in node:
            required = node["required"]
            if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
                raise _Unsupported("required that is not a list of strings")
            names = tuple(required)

            def has_all(x: dict[str, Any]) -> bool:
                return all(map(x.__contains__, names))
            checks.append(has_all)
        return _all_of(checks) if checks else None

    def _members(self, props: Any, patterns: Any, additional: Any) -> Check:
        """properties, patternProperties and additionalProperties in one pass over the instance's keys."""
        if props is None:
            props = {}
        if patterns is None:
            patterns = {}
        if not isinstance(props, dict) or not isinstance(patterns, dict):
            raise _Unsupported("properties or patternProperties that is not an object")
        named = {name: self.compile(sub) for name, sub in props.items()}
        try:
            by_pattern = tuple((re.compile(p), self.compile(sub)) for p, sub in patterns.items())
            # additionalProperties skips keys that match the patterns joined with "|" (jsonschema's
            # find_additional_properties), which is not always "any pattern matches" (inline flags)
            joined = re.compile("|".join(patterns)) if patterns else None
        except (re.error, TypeError) as exc:
            raise _Unsupported(f"pattern: {exc}") from exc
        extra: Check | None = None if additional is True else self.compile(additional)

        if not by_pattern:
            def simple(x: dict[str, Any]) -> bool:
                for k, v in x.items():
                    sub = named.get(k)
                    if sub is None:
                        if extra is not None and not extra(v):
                            return False
                    elif not sub(v):
                        return False
                return True
            return simple

        def full(x: dict[str, Any]) -> bool:
            for k, v in x.items():
                sub = named.get(k)
                if sub is not None and not sub(v):
                    return False
                for rx, psub in by_pattern:
                    if rx.search(k) and not psub(v):
                        return False
                if sub is None and extra is not None and not (joined is not None and joined.search(k)) \
                        and not extra(v):
                    return False
            return True
        return full

    # -- array keywords --

    def _array(self, node: dict[str, Any]) -> Check | None:
        checks: list[Check] = []
        if "items" in node:  # no prefixItems (unsupported), so "items" covers every element
            item = self.compile(node["items"])
            if item is not _always:
                def each(x: list[Any]) -> bool:
                    return all(map(item, x))
                checks.append(each)
        if "minItems" in node:
            least = _count(node["minItems"])
            checks.append(lambda x: len(x) >= least)
        if "contains" in node:  # no minContains/maxContains (unsupported): at least one match
            wanted = self.compile(node["contains"])

            def contains(x: list[Any]) -> bool:
                return any(map(wanted, x))
            checks.append(contains)
        return _all_of(checks) if checks else None

    # -- string keywords --

    @staticmethod
    def _string(node: dict[str, Any]) -> Check | None:
        checks: list[Check] = []
        if "pattern" in node:
            if not isinstance(node["pattern"], str):
                raise _Unsupported("pattern that is not a string")
            try:  # jsonschema uses Python's re.search, not ECMA-262 regexes: "$" also matches before a final "\n"
                rx = re.compile(node["pattern"])
            except re.error as exc:
                raise _Unsupported(f"pattern: {exc}") from exc
            checks.append(lambda x: rx.search(x) is not None)
        if "minLength" in node:
            least = _count(node["minLength"])
            checks.append(lambda x: len(x) >= least)  # code points, as len() counts them in jsonschema
        return _all_of(checks) if checks else None

    # -- number keywords --

    @staticmethod
    def _number(node: dict[str, Any]) -> Check | None:
        checks: list[Check] = []
        # jsonschema fails "x < minimum" / "x > maximum"; written the same way so NaN passes as it does there
        if "minimum" in node:
            low = _bound(node["minimum"])
            checks.append(lambda x: not x < low)
        if "maximum" in node:
            high = _bound(node["maximum"])
            checks.append(lambda x: not x > high)
        return _all_of(checks) if checks else None

    # -- $ref and subschema lists --

    def _resolve(self, ref: Any) -> Any:
        """The target of a "#..." JSON pointer, as the referencing library walks it."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise _Unsupported(f"$ref {ref!r}")
        fragment = ref[1:]
        target: Any = self.root
        if not fragment:
            return target
        if not fragment.startswith("/"):
            raise _Unsupported(f"$ref to an anchor {ref!r}")
        for segment in unquote(fragment[1:]).split("/"):  # unquoted first, then split: as referencing does
            try:
                if isinstance(target, list):
                    target = target[int(segment)]
                elif isinstance(target, dict):
                    target = target[segment.replace("~1", "/").replace("~0", "~")]
                else:
                    raise _Unsupported(f"$ref {ref!r} through a scalar")
            except (LookupError, ValueError) as exc:
                raise _Unsupported(f"$ref {ref!r} points nowhere") from exc
            if isinstance(target, dict) and "$id" in target:
                raise _Unsupported(f"$ref {ref!r} enters an embedded resource")
        return target

    @staticmethod
    def _schemas(value: Any) -> list[Any]:
        if not isinstance(value, list):
            raise _Unsupported("allOf/anyOf that is not a list")
        return value


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Unsupported(f"count {value!r}")
    return value


def _bound(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise _Unsupported(f"bound {value!r}")
    return value


_KEYWORDS = frozenset({"type", "enum", "const", "properties", "patternProperties", "additionalProperties", "required",
                       "items", "minItems", "contains", "pattern", "minLength", "minimum", "maximum", "$ref", "allOf",
                       "anyOf", "if"})
