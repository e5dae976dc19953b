"""The fast kubectl reader's own scalar and block parsers give what PyYAML's safe loader gives, or step aside.

``simple_scalar`` reads one-line scalars (names, and every scalar of the block parser) and
``parse_block_yaml`` the kept lines of an item; both must agree with ``yaml.load(..., CSafeLoader)``
value for value and type for type wherever they answer, and answer None/False where they cannot be
sure. The texts are PyYAML's own block output of generated values, and mutations of it.
"""

from __future__ import annotations

import datetime
import io
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from linter.cli import main
from linter.explain.blockyaml import parse_block_yaml
from linter.explain.dump import DumpBuilder
from linter.explain.fastyaml import _Items, read_kubectl_yaml, simple_scalar
from linter.explain.fields import preemption_spec_for_kind, spec_for_kind

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import dumpgen

_LOADER = yaml.CSafeLoader
_WORDS = ["yes", "No", "TRUE", "false", "on", "OFF", "null", "Null", "NULL", "~", "y", "n", "nan", ".inf", "-.inf",
          ".NaN", "0x1f", "0o17", "017", "1_000", "1e3", "1.5", "-2", "+3", "190:20:30", "2026-11-20",
          "2026-11-20T10:00:00Z", "<<", "=", "a b", "a: b", "a #b", "#c", "-", "- x", "'q'", '"d"', "it's",
          "x:", "{}", "[]", "[a]", "{a: 1}", "&a", "*a", "!t x", "|", ">", "%x", "@x", "`x", "a\tb", "é", "ü-1",
          "a\u2028b", "a\x85b", "a\u2029b", "10.0.0.1", "7910m", "31Gi", "node-00001", "kubernetes.io/os"]
_KEYS = ["a", "kind", "name", "labels", "yes", "on", "null", "1", "2026-11-20", "1.5", "0x1f", "k_1", "x.y/z", "-a"]


def _same(a: Any, b: Any) -> bool:
    """Equal, with every nested value of the same type (1, 1.0, True and "1" all differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(k1, k2) and _same(a[k1], b[k2]) for k1, k2 in zip(a, b, strict=True))
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and a != a:
        return bool(b != b)
    return bool(a == b)


_scalar_text = st.one_of(
    st.sampled_from(_WORDS),
    st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), min_size=1, max_size=12),
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._:/-]{0,10}", fullmatch=True),
)


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(_scalar_text)
def test_simple_scalar_reads_what_pyyaml_reads(text: str) -> None:
    ok, value = simple_scalar(text)
    try:
        expected = yaml.load(f"k: {text}\n", Loader=_LOADER)
    except yaml.YAMLError:
        assert not ok, f"{text!r} is not valid YAML after a key, yet was read as {value!r}"
        return
    if ok:
        assert isinstance(expected, dict) and list(expected) == ["k"]
        assert _same(value, expected["k"]), (text, value, expected["k"])


def test_letter_words_are_exactly_the_bools_and_nulls() -> None:
    # Every case variant of every word PyYAML might resolve: the fast path must agree with the resolver.
    for word in ("yes", "no", "true", "false", "on", "off", "null", "y", "n", "nil", "none", "nan", "inf"):
        for variant in {word, word.upper(), word.capitalize(), word[0] + word[1:].upper()}:
            assert _same(simple_scalar(variant), (True, yaml.load(f"k: {variant}\n", Loader=_LOADER)["k"]))


_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False),
    st.sampled_from(_WORDS), st.text(max_size=8), st.just({}), st.just([]),
    st.dates(min_value=datetime.date(1970, 1, 1)),
)
_key = st.one_of(st.sampled_from(_KEYS), st.integers(0, 99), st.booleans())
_tree = st.recursive(_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_key, inner, max_size=4)), max_leaves=25)


def _as_item(value: dict[Any, Any], width: int) -> str:
    """``value`` as the kept lines of one ``items`` entry: "-" alone, then the mapping two spaces in."""
    body = yaml.safe_dump(value, default_flow_style=False, sort_keys=False, width=width, allow_unicode=True)
    return "\n-\n" + "".join("  " + line + "\n" for line in body.splitlines())


def _check(text: str) -> None:
    parsed = parse_block_yaml(text, simple_scalar)
    try:
        expected = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError:
        assert parsed is None, f"PyYAML refuses {text!r}, the block parser read {parsed!r}"
        return
    if parsed is not None:
        assert _same(parsed, expected), (text, parsed, expected)


@settings(max_examples=800, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_key, _tree, min_size=1, max_size=5), st.sampled_from([20, 80, 10**6]))
def test_block_parser_reads_what_pyyaml_reads(value: dict[Any, Any], width: int) -> None:
    _check(_as_item(value, width))


@settings(max_examples=800, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_key, _tree, min_size=1, max_size=4), st.data())
def test_block_parser_steps_aside_or_agrees_on_mutated_text(value: dict[Any, Any], data: st.DataObject) -> None:
    text = _as_item(value, 80)
    at = data.draw(st.integers(1, len(text) - 1))
    edit = data.draw(st.sampled_from(["", " ", "  ", ": ", "- ", "\n", "\n  ", "#", " #x", "'", '"', "{", "&a ",
                                      "*a", "!!str ", "|\n", "\t", "\u2028", "\x85", "\ufeff", "\x07"]))
    cut = data.draw(st.integers(0, 2))
    mutated = text[:at] + edit + text[at + cut:]
    assume(mutated.startswith("\n") and mutated.endswith("\n"))
    _check(mutated)


@pytest.mark.parametrize("specs", [spec_for_kind, preemption_spec_for_kind], ids=["scores", "preemption"])
def test_kubectl_items_take_the_block_parser(tmp_path: Path, specs: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The speed-up holds only if kubectl's own layout is inside the subset: every kept text of a generated
    # dump must be read by the block parser, and give what PyYAML gives.
    path = tmp_path / "dump.yaml"
    dumpgen.write_dump(str(path), 6, 5, seed=3)
    texts: list[str] = []
    original = _Items._parse

    def recording(text: str) -> dict[str, Any]:
        texts.append(text)
        return original(text)

    monkeypatch.setattr(_Items, "_parse", staticmethod(recording))
    read_kubectl_yaml([path.read_text()], DumpBuilder(str(path)), specs)
    assert len(texts) > 6
    for text in texts:
        parsed = parse_block_yaml(text, simple_scalar)
        assert parsed is not None, text
        assert _same(parsed, yaml.load(text, Loader=_LOADER))


def test_a_date_with_no_such_month_is_a_one_line_error_not_a_crash(tmp_path: Path) -> None:
    # kubectl writes the namespace 2026-13-45 (a valid DNS label) unquoted; PyYAML's resolver takes it
    # for a timestamp and its constructor fails. explain once died with "internal error: ValueError".
    state = ("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n  status:\n"
             "    allocatable: {cpu: '4', memory: 8Gi, pods: '110'}\n- apiVersion: v1\n  kind: Pod\n  metadata:\n"
             "    name: p1\n    namespace: 2026-13-45\n  spec:\n    nodeName: n1\n    containers:\n    - name: c\n"
             "kind: List\nmetadata: {}\n")
    (tmp_path / "state.yaml").write_text(state)
    (tmp_path / "pod.yaml").write_text("kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n")
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(tmp_path / "state.yaml"), "--pod", str(tmp_path / "pod.yaml")],
                out=out, err=err)
    assert code == 2
    assert err.getvalue().count("\n") == 1
    assert "state.yaml: not valid YAML/JSON (line 13, column 16): month must be in 1..12" in err.getvalue()
