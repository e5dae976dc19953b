"""The compiled schema check (linter.schemacheck) answers exactly what jsonschema's is_valid answers.

A True where jsonschema finds an error would silently drop findings, so every comparison here is
against ``Draft202012Validator(schema).is_valid`` itself: on every document of the shared vectors and
the wild corpus, on generated JSON values, on real documents with one random change, and on random
schemas built from the supported keywords. Schemas with anything else must compile to None.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from paths import SHARED, VECTORS

import schemas
from linter import schema
from linter.schemacheck import DRAFT_2020_12, compile_schema
from linter.source import Document, parse_stream
from linter.unwrap import embedded_documents, is_configmap, list_items

NAMES = schemas.names()
WILD = SHARED / "wild"
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the corpus: every document the linter could hand to a schema ------------------------------

def _flatten(documents: list[Document]) -> Iterator[Any]:
    """Each document's data, and inside ConfigMaps and Lists the embedded ones too (as linting opens them)."""
    stack = list(reversed(documents))
    while stack:
        doc = stack.pop()
        if doc.data is None:
            continue
        yield doc.data
        if is_configmap(doc.data):
            inner, _ = embedded_documents(doc)
            stack.extend(reversed(inner))
        elif (items := list_items(doc)) is not None:
            stack.extend(reversed(items))


def _vector_values(node: Any) -> Iterator[tuple[str | None, Any]]:
    """(text, None) for every config text in a vectors file, (None, object) for every embedded Kubernetes object."""
    if isinstance(node, dict):
        if "kind" in node or "apiVersion" in node:
            yield None, node
        for key, value in node.items():
            if key == "text" and isinstance(value, str):
                yield value, None
            else:
                yield from _vector_values(value)
    elif isinstance(node, list):
        for value in node:
            yield from _vector_values(value)


@cache
def corpus() -> tuple[tuple[str, Any], ...]:
    out: list[tuple[str, Any]] = []
    sources: list[tuple[str, str | None, Any]] = []
    for path in sorted(VECTORS.glob("*.json")):
        sources.extend((path.name, text, obj) for text, obj in _vector_values(json.loads(path.read_text())))
    for path in sorted(WILD.rglob("*")):
        if path.is_file():
            sources.append((path.name, path.read_text(encoding="utf-8", errors="surrogateescape"), None))
    for name, text, obj in sources:
        if text is None:
            out.append((name, obj))
            continue
        # every document of the stream, not only the first one a scheduler reads: more to compare
        documents, _ = parse_stream(text, name, is_json=name.endswith(".json"))
        out.extend((name, data) for data in _flatten(documents))
    return tuple(out)


@cache
def jsonschema_validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schemas.load(name))


def _agree(name: str, instance: Any) -> None:
    check = schema.fast_check(name)
    assert check is not None
    expected = jsonschema_validator(name).is_valid(instance)
    assert check(instance) is expected, (name, instance)


def test_every_shipped_schema_compiles() -> None:
    for name in NAMES:
        assert schema.fast_check(name) is not None, name


def test_the_corpus_is_large_and_each_schema_accepts_some_of_it() -> None:
    data = [d for _, d in corpus()]
    assert len(data) > 200
    for name in NAMES:
        valid = sum(jsonschema_validator(name).is_valid(d) for d in data)
        assert 5 <= valid < len(data), name  # both answers occur, so both are compared


@pytest.mark.parametrize("name", NAMES)
def test_agrees_on_every_vector_and_wild_document(name: str) -> None:
    for source, data in corpus():
        check = schema.fast_check(name)
        assert check is not None
        assert check(data) is jsonschema_validator(name).is_valid(data), (name, source)


@pytest.mark.parametrize("name", NAMES)
def test_messages_are_jsonschemas_own(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the fast path on or off, schema.errors() says the same, message for message."""
    data = [d for _, d in corpus()]
    fast = [schema.errors(d, name) for d in data]
    monkeypatch.setattr(schema, "fast_check", lambda _name: None)
    assert [schema.errors(d, name) for d in data] == fast
    assert any(fast) and not all(fast)


def test_a_valid_document_never_reaches_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_name: str) -> None:
        raise AssertionError("jsonschema ran on a valid document")

    valid = [(n, d) for n in NAMES for _, d in corpus() if jsonschema_validator(n).is_valid(d)]
    monkeypatch.setattr(schema, "validator", refuse)
    assert valid
    for name, data in valid:
        assert schema.errors(data, name) == []


# --- generated values -------------------------------------------------------------------------

def _schema_words(node: Any, keys: set[str], scalars: list[Any]) -> None:
    """Property names, enum/const values and patterns of a schema: what generated values should hit."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("properties", "patternProperties", "$defs") and isinstance(value, dict):
                keys.update(value)
                for sub in value.values():
                    _schema_words(sub, keys, scalars)
            elif key == "enum" and isinstance(value, list):
                scalars.extend(v for v in value if not isinstance(v, (dict, list)))
            elif key in ("const", "minimum", "maximum") and not isinstance(value, (dict, list)):
                scalars.append(value)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    scalars.extend([value - 1, value + 1, float(value), value + 0.5])
            elif key == "required" and isinstance(value, list):
                keys.update(v for v in value if isinstance(v, str))
            else:
                _schema_words(value, keys, scalars)
    elif isinstance(node, list):
        for value in node:
            _schema_words(value, keys, scalars)


def _pools() -> tuple[list[str], list[Any]]:
    keys: set[str] = {"binpack.resources.nvidia.com/gpu", "binpack.resources.", "<<", ""}
    scalars: list[Any] = [None, True, False, 0, 1, -1, 1.0, -0.0, 0.5, 100, 101, 2**31, 2**63, 1e300,
                          math.inf, -math.inf, math.nan, "", "0", "1", "15s", "1m30s", "5s\n", "µs", "x" * 300,
                          "\ud800", "é", "e\u0301"]
    for name in NAMES:
        _schema_words(schemas.load(name), keys, scalars)
    return sorted(keys), scalars


KEYS, SCALARS = _pools()
SCALAR = st.one_of(st.sampled_from(SCALARS), st.none(), st.booleans(), st.integers(),
                   st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
KEY = st.one_of(st.sampled_from(KEYS), st.text(max_size=6))
VALUE = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(KEY, inner, max_size=5)), max_leaves=25)
# one value of each shape, to swap a node's type
OTHER = st.one_of(st.booleans(), st.integers(-5, 200), st.floats(allow_nan=True), st.text(max_size=4), st.none(),
                  st.lists(SCALAR, max_size=2), st.dictionaries(KEY, SCALAR, max_size=2), VALUE)


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(instance=VALUE)
def test_agrees_on_generated_values(name: str, instance: Any) -> None:
    _agree(name, instance)


@st.composite
def mutated(draw: st.DrawFn, seeds: tuple[Any, ...]) -> Any:
    """A copy of a real document with one to three changes."""
    doc = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 3))):
        doc = draw(_changed(doc))
    return doc


@st.composite
def _changed(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` changed once, in place: a node replaced (by any type), a key or an item added or removed."""
    parent: Any = None
    slot: Any = None
    node = doc
    while isinstance(node, (dict, list)) and node and draw(st.integers(0, 7)) > 0:  # down a path, mostly to a leaf
        parent = node
        slot = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        node = node[slot]
    action = draw(st.sampled_from(["replace", "add", "remove"]))
    if action == "add" and isinstance(node, dict):
        node[draw(KEY)] = draw(OTHER)
    elif action == "add" and isinstance(node, list):
        node.insert(draw(st.integers(0, len(node))), draw(OTHER))
    elif action == "remove" and isinstance(node, dict) and node:
        del node[draw(st.sampled_from(sorted(node)))]
    elif action == "remove" and isinstance(node, list) and node:
        del node[draw(st.integers(0, len(node) - 1))]
    elif parent is None:
        return draw(OTHER)
    else:
        parent[slot] = draw(OTHER)
    return doc


@cache
def seeds(name: str, *, valid: bool) -> tuple[Any, ...]:
    """The documents valid under the schema (one change to them flips the answer most often), or all mappings."""
    data = [d for _, d in corpus() if isinstance(d, dict)]
    return tuple(d for d in data if jsonschema_validator(name).is_valid(d)) if valid else tuple(data)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_agrees_on_mutated_documents(name: str, data: st.DataObject) -> None:
    instance = data.draw(mutated(seeds(name, valid=data.draw(st.booleans()))))
    _agree(name, instance)


# --- the semantics jsonschema has, one by one ---------------------------------------------------

EDGES: list[tuple[dict[str, Any], Any]] = [
    ({"type": "integer"}, True), ({"type": "integer"}, 1.0), ({"type": "integer"}, 1.5), ({"type": "integer"}, 2**70),
    ({"type": "integer"}, math.inf), ({"type": "integer"}, math.nan), ({"type": "number"}, False),
    ({"type": "number"}, math.nan), ({"type": "boolean"}, 0), ({"type": "null"}, False), ({"type": "object"}, []),
    ({"type": "array"}, {}), ({"type": ["string", "null"]}, None), ({"type": []}, 1),
    ({"enum": [1, "a"]}, True), ({"enum": [1, "a"]}, 1.0), ({"enum": [0]}, False), ({"enum": [False]}, 0),
    ({"enum": [[1, {"a": True}]]}, [1.0, {"a": True}]), ({"enum": [[1, {"a": True}]]}, [1, {"a": 1}]),
    ({"enum": ["a", "b"]}, ["a"]), ({"enum": []}, None), ({"const": None}, False),
    ({"const": {"a": [0]}}, {"a": [0.0]}),
    ({"const": {"a": [0]}}, {"a": [False]}), ({"const": "1"}, 1), ({"const": 1}, "1"),
    ({"minimum": 0}, -0.5), ({"minimum": 0}, math.nan), ({"minimum": 0}, False), ({"minimum": 0}, "-1"),
    ({"maximum": 100}, 100.0), ({"maximum": 100}, 2**64), ({"maximum": 100}, math.inf), ({"maximum": 1.5}, True),
    ({"pattern": "^[0-9]+s$"}, "15s\n"), ({"pattern": "^[0-9]+s$"}, 15), ({"pattern": "b"}, "abc"),
    ({"pattern": "^\\d$"}, "\u0663"), ({"minLength": 1}, ""), ({"minLength": 2}, "e\u0301"), ({"minLength": 1}, []),
    ({"minItems": 1}, []), ({"minItems": 1}, ""), ({"items": False}, []), ({"items": False}, [1]),
    ({"items": {"type": "string"}}, {"0": 1}), ({"contains": {"const": 1}}, []), ({"contains": {"const": 1}}, [True]),
    ({"contains": {"const": 1}}, [2, 1.0]), ({"contains": False}, {}),
    ({"required": ["a"]}, {"b": 1}), ({"required": ["a"]}, ["a"]), ({"required": []}, {}),
    ({"properties": {"a": False}}, {"b": 1}), ({"properties": {"a": False}}, {"a": None}),
    ({"additionalProperties": False}, {}), ({"additionalProperties": False, "properties": {"a": {}}}, {"a": 1, "b": 1}),
    ({"additionalProperties": {"type": "string"}, "properties": {"a": {}}}, {"a": 1, "b": "x"}),
    ({"additionalProperties": {"type": "string"}, "properties": {"a": {}}}, {"b": 2}),
    ({"patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": False}, {"xa": 1, "y": 1}),
    ({"patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": False}, {"xa": "1"}),
    ({"patternProperties": {"^x": {"minimum": 5}}, "properties": {"xa": {"maximum": 9}}}, {"xa": 10}),
    ({"patternProperties": {"^x": {"minimum": 5}}, "properties": {"xa": {"maximum": 9}}}, {"xa": 4}),
    ({"patternProperties": {"(?i)^x": True, "^y": True}, "additionalProperties": False}, {"Y": 1}),
    ({"anyOf": []}, 1), ({"allOf": []}, 1), ({"anyOf": [{"type": "string"}, {"minimum": 3}]}, 2),
    ({"anyOf": [{"type": "string"}, {"minimum": 3}]}, "x"), ({"allOf": [{"minimum": 1}, {"maximum": 2}]}, 3),
    ({"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"a": 1}),
    ({"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"c": 1}),
    ({"if": {"required": ["a"]}, "else": {"required": ["b"]}}, {"c": 1}),
    ({"if": {"required": ["a"]}, "else": {"required": ["b"]}}, {"a": 1}),
    ({"then": False}, 1), ({"else": False}, 1), ({"if": False}, 1),
    ({"$defs": {"n": {"type": "integer"}}, "items": {"$ref": "#/$defs/n"}}, [1, "2"]),
    ({"$defs": {"a/b": {"type": "integer"}}, "items": {"$ref": "#/$defs/a~1b"}}, [1, 2]),
    ({"$defs": {"a b": {"type": "integer"}}, "items": {"$ref": "#/$defs/a%20b"}}, ["1"]),
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n", "minimum": 3}, 2),
    ({"allOf": [{"minimum": 1}, {"maximum": 5}], "items": {"$ref": "#/allOf/1"}}, [6]),
    ({"title": "t", "description": "d", "examples": [1], "$comment": "c", "default": 1, "type": "string"}, 1),
]
TREE = {"$schema": DRAFT_2020_12, "$id": "https://example.invalid/tree.json", "type": "object",
        "required": ["name"], "additionalProperties": False,
        "properties": {"name": {"type": "string", "minLength": 1},
                       "children": {"type": "array", "items": {"$ref": "#"}}}}


@pytest.mark.parametrize(("sub", "instance"), EDGES, ids=[str(i) for i in range(len(EDGES))])
def test_edge_cases_agree(sub: dict[str, Any], instance: Any) -> None:
    for s in (sub, {"$schema": DRAFT_2020_12, "$id": "https://example.invalid/s.json", **sub}):
        check = compile_schema(s)
        assert check is not None, s
        assert check(instance) is Draft202012Validator(s).is_valid(instance), (s, instance)


TREES = st.recursive(st.fixed_dictionaries({"name": st.sampled_from(["", "a"])}),
                     lambda inner: st.fixed_dictionaries({"name": st.sampled_from(["a", "", 1])}, optional={
                         "children": st.one_of(st.lists(inner, max_size=3), VALUE), "x": SCALAR}), max_leaves=12)


@FUZZ
@given(instance=st.one_of(TREES, VALUE))
def test_a_recursive_ref_agrees(instance: Any) -> None:
    check = compile_schema(TREE)
    assert check is not None
    assert check(instance) is Draft202012Validator(TREE).is_valid(instance)


# --- random schemas from the supported keywords ------------------------------------------------

SMALL = st.sampled_from([None, True, False, 0, 1, -1, 1.0, 2.5, 3, math.inf, math.nan, "", "a", "k", "ab\n", "1"])
SMALL_VALUE = st.recursive(SMALL, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                          st.dictionaries(st.sampled_from(["a", "b", "k", "K", "xk"]),
                                                                          inner, max_size=3)), max_leaves=10)
PATTERN = st.sampled_from(["^a", "b$", "^[0-9]+$", "k", "(?i)^k", "^$", "a|b", "^(a)\\1?$"])
TYPE = st.sampled_from(["object", "array", "string", "integer", "number", "boolean", "null"])
BOUND = st.sampled_from([0, 1, 2.5, -1, 3])
PROP = st.sampled_from(["a", "b", "k", "K"])
REF = st.sampled_from(["#/$defs/p", "#/$defs/q"])


def _keywords(inner: st.SearchStrategy[Any], *, refs: bool) -> st.SearchStrategy[Any]:
    """One keyword with a value: nodes get one to three of them, so a schema is often satisfiable
    and each keyword decides the answer about as often as the others."""
    values: dict[str, st.SearchStrategy[Any]] = {
        "type": st.one_of(TYPE, st.lists(TYPE, max_size=3)), "enum": st.lists(SMALL_VALUE, max_size=3),
        "const": SMALL_VALUE, "minimum": BOUND, "maximum": BOUND, "pattern": PATTERN, "minLength": st.integers(0, 2),
        "minItems": st.integers(0, 2), "required": st.lists(PROP, max_size=2),
        "properties": st.dictionaries(PROP, inner, max_size=3), "patternProperties": st.dictionaries(PATTERN, inner,
                                                                                                     max_size=2),
        "additionalProperties": inner, "items": inner, "contains": inner, "allOf": st.lists(inner, max_size=2),
        "anyOf": st.lists(inner, max_size=2), "if": inner, "then": inner, "else": inner, "description": st.text()}
    if refs:
        values["$ref"] = REF
    return st.one_of([st.tuples(st.just(k), v) for k, v in values.items()])


def _schemas(refs: bool) -> st.SearchStrategy[Any]:
    leaf = st.one_of(st.booleans(), st.builds(dict, st.lists(_keywords(st.booleans(), refs=False), max_size=1)))
    return st.recursive(leaf, lambda inner: st.one_of(
        st.booleans(), st.builds(dict, st.lists(_keywords(inner, refs=refs), min_size=1, max_size=3))), max_leaves=8)


SCHEMA, SCHEMA_WITHOUT_REFS = _schemas(refs=True), _schemas(refs=False)  # built once: building them is slow

@st.composite
def random_schemas(draw: st.DrawFn) -> dict[str, Any]:
    body = draw(SCHEMA)
    root: dict[str, Any] = dict(body) if isinstance(body, dict) else {"allOf": [body]}
    root["$defs"] = {"p": draw(SCHEMA_WITHOUT_REFS), "q": draw(SCHEMA_WITHOUT_REFS)}  # no ref cycles
    return root


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=random_schemas(), instances=st.lists(SMALL_VALUE, min_size=1, max_size=8))
def test_random_schemas_agree(s: dict[str, Any], instances: list[Any]) -> None:
    check = compile_schema(s)
    if check is None:  # only a joined pattern that Python refuses ("(?i)" not first) is given up on
        assert "patternProperties" in json.dumps(s)
        return
    validator = Draft202012Validator(s)
    for instance in instances:
        assert check(instance) is validator.is_valid(instance), (s, instance)


# --- fallback: anything not implemented compiles to None ---------------------------------------

@pytest.mark.parametrize("sub", [
    {"oneOf": [{}]}, {"not": {}}, {"format": "date"}, {"prefixItems": [{}]}, {"contains": {}, "minContains": 2},
    {"maxItems": 1}, {"maxLength": 1}, {"exclusiveMinimum": 0}, {"multipleOf": 2}, {"uniqueItems": True},
    {"propertyNames": {}}, {"dependentRequired": {}}, {"unevaluatedProperties": False}, {"$dynamicRef": "#"},
    {"$anchor": "a"}, {"typo": 1}, {"items": {"typo": 1}}, {"$defs": {"x": {"nope": 1}}, "$ref": "#/$defs/x"},
    {"properties": {"a": {"if": {}, "then": {"oneOf": []}}}},
    {"$ref": "https://example.invalid/other.json"}, {"$ref": "#/$defs/missing"}, {"$ref": "#anchor"},
    {"$defs": {"x": {"$id": "x.json"}}, "$ref": "#/$defs/x"}, {"items": {"$schema": "http://json-schema.org/draft-07/schema#"}},
    {"items": {"$id": "sub.json"}}, {"type": "any"}, {"type": {"a": 1}}, {"required": "a"}, {"enum": {"a": 1}},
    {"minimum": True}, {"minLength": 1.0}, {"pattern": "("}, {"patternProperties": {"(": {}}}, {"items": 1},
    {"additionalProperties": None}, {"allOf": {}},
])
def test_unsupported_schemas_compile_to_none(sub: dict[str, Any]) -> None:
    assert compile_schema(sub) is None
    assert compile_schema({"properties": {"deep": {"items": sub}}}) is None  # wherever it sits


def test_another_draft_at_the_root_compiles_to_none() -> None:
    assert compile_schema({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}) is None


def test_unused_defs_and_lone_then_else_are_not_compiled() -> None:
    """jsonschema never evaluates them, so nothing in them can make the schema unsupported."""
    assert compile_schema({"$defs": {"x": {"oneOf": []}}, "then": {"not": {}}, "type": "string"}) is not None


def test_a_schema_the_compiler_lacks_falls_back_to_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "priorityclass-v1"
    (document, *_) = seeds(name, valid=True)
    shipped = schemas.load(name)
    monkeypatch.setattr(schemas, "load", lambda _name: {**shipped, "not": {"required": ["kind"]}})
    schema.fast_check.cache_clear()
    schema.validator.cache_clear()
    try:
        assert schema.fast_check(name) is None
        assert schema.errors(document, name)  # jsonschema ran, and saw the keyword the compiler lacks
    finally:
        schema.fast_check.cache_clear()
        schema.validator.cache_clear()
