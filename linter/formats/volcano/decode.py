"""Volcano's ``yaml.Unmarshal`` into ``conf.SchedulerConfiguration`` (gopkg.in/yaml.v2), re-done on parsed data.

yaml.v2 is lenient: unknown keys are dropped and any scalar fills a ``string`` field (its
source text is used, so ``actions: 1`` is the string ``"1"``). What it refuses is a
*type* mismatch: a mapping or list where a string is expected, anything but a boolean
for the ``*bool`` plugin switches, a scalar or list for ``arguments``. Those errors are
collected (not stopping at the first) and returned as one ``yaml: unmarshal errors:``
message; Volcano then rejects the whole file. This module reproduces those texts:
``line N: cannot unmarshal !!str `false` into bool`` where N counts lines of the
whitespace-trimmed file, as Volcano trims it before parsing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from linter.formats.volcano.fields import PLUGIN_SWITCHES
from linter.formats.volcano.repeats import EarlierStore, earlier_stores
from linter.formats.volcano.scalars import node_tag, raw_scalar
from linter.source import Document, Pointer

_ARGS_TYPE = "map[string]interface {}"


@dataclass(frozen=True)
class UnmarshalError:
    """One yaml.v2 type error: the node's pointer, its line in the trimmed text, and the text."""

    pointer: Pointer
    line: int
    text: str  # "line N: cannot unmarshal ..."
    written_at: tuple[int, int] | None = None  # document-local place of a store before the key's last one


def leading_lines_trimmed(text: str) -> int:
    """How many lines ``strings.TrimSpace`` removes from the top of the text."""
    stripped = text.lstrip(" \t\n\v\f\r\x85\xa0")
    return text[: len(text) - len(stripped)].count("\n")


def _terror(doc: Document, pointer: Pointer, value: Any, go_type: str, shift: int,
            earlier: EarlierStore | None = None) -> UnmarshalError:
    """``decoder.terror``: scalar values are shown in backticks, cut to 7 bytes + ``...`` past 10.
    ``earlier``: a store of this key before its last one (its own line and text)."""
    spot = doc.spots.get(tuple(pointer))
    line = (earlier.line if earlier else spot.line if spot else doc.start_line) - shift
    tag = node_tag(doc, pointer, value, earlier is not None)
    shown = ""
    if tag not in ("!!map", "!!seq"):
        # a tagged mapping or list is shown with its node.value, which is empty
        text = "" if isinstance(value, (dict, list)) else earlier.raw if earlier else raw_scalar(doc, pointer, value)
        raw = text.encode()
        cut = raw[:7] + b"..." if len(raw) > 10 else raw
        shown = " `" + cut.decode(errors="replace") + "`"
    return UnmarshalError(tuple(pointer), line, f"line {line}: cannot unmarshal {tag}{shown} into {go_type}",
                          (earlier.line, earlier.column) if earlier else None)


def unmarshal_errors(doc: Document) -> list[UnmarshalError]:
    """Every type error yaml.v2 reports for this document, in decoding (document) order."""
    shift = leading_lines_trimmed(doc.text)
    out: list[UnmarshalError] = []

    def want_string(p: Pointer, v: Any, earlier: EarlierStore | None = None) -> None:
        if isinstance(v, (dict, list)):
            out.append(_terror(doc, p, v, "string", shift, earlier))

    def want_args(p: Pointer, v: Any, earlier: EarlierStore | None = None) -> None:
        if v is not None and not isinstance(v, dict):
            out.append(_terror(doc, p, v, _ARGS_TYPE, shift, earlier))

    def want_list(p: Pointer, v: Any, go_type: str, earlier: EarlierStore | None = None) -> bool:
        if v is None or isinstance(v, list):
            return isinstance(v, list)
        out.append(_terror(doc, p, v, go_type, shift, earlier))
        return False

    def want_struct(p: Pointer, v: Any, go_type: str, earlier: EarlierStore | None = None) -> bool:
        if v is None or isinstance(v, dict):
            return isinstance(v, dict)
        out.append(_terror(doc, p, v, go_type, shift, earlier))
        return False

    data = doc.data
    if not want_struct((), data, "conf.SchedulerConfiguration"):
        return out
    earlier = earlier_stores(doc, data, ())
    for key, value in data.items():
        p: Pointer = (key,)
        for old in earlier.get(key, ()):  # only the field's own type: what was inside is not kept
            if key == "actions":
                want_string(p, old.value, old)
            elif key in ("tiers", "configurations"):
                want_list(p, old.value, "[]conf.Tier" if key == "tiers" else "[]conf.Configuration", old)
            elif key == "metrics":
                want_struct(p, old.value, "map[string]string", old)
        if key == "actions":
            want_string(p, value)
        elif key == "tiers" and want_list(p, value, "[]conf.Tier"):
            for i, tier in enumerate(value):
                if want_struct((*p, i), tier, "conf.Tier"):
                    _tier_errors(doc, (*p, i), tier, out, shift, want_string, want_args)
        elif key == "configurations" and want_list(p, value, "[]conf.Configuration"):
            for i, item in enumerate(value):
                if want_struct((*p, i), item, "conf.Configuration"):
                    for k, v in item.items():
                        if k == "name":
                            want_string((*p, i, k), v)
                        elif k == "arguments":
                            want_args((*p, i, k), v)
        elif key == "metrics" and want_struct(p, value, "map[string]string"):
            stores = earlier_stores(doc, value, p)
            for k, v in value.items():
                for old in stores.get(k, ()):
                    want_string((*p, k), old.value, old)
                want_string((*p, k), v)
    return out


def _tier_errors(doc: Document, p: Pointer, tier: dict[str, Any], out: list[UnmarshalError], shift: int,
                 want_string: Any, want_args: Any) -> None:
    plugins = tier.get("plugins")
    pp: Pointer = (*p, "plugins")
    if plugins is None:
        return
    if not isinstance(plugins, list):
        out.append(_terror(doc, pp, plugins, "[]conf.PluginOption", shift))
        return
    for j, option in enumerate(plugins):
        op: Pointer = (*pp, j)
        if option is None:
            continue
        if not isinstance(option, dict):
            out.append(_terror(doc, op, option, "conf.PluginOption", shift))
            continue
        earlier = earlier_stores(doc, option, op)
        start = len(out)
        for k, v in option.items():
            for old in earlier.get(k, ()):
                _option_error(doc, (*op, k), old.value, out, shift, want_string, want_args, old)
            _option_error(doc, (*op, k), v, out, shift, want_string, want_args)
        if earlier:  # yaml.v2 decodes the option's entries in the order they are written
            out[start:] = sorted(out[start:], key=lambda e: e.line)


def _option_error(doc: Document, p: Pointer, v: Any, out: list[UnmarshalError], shift: int,
                  want_string: Any, want_args: Any, earlier: EarlierStore | None = None) -> None:
    key = p[-1]
    if key == "name":
        want_string(p, v, earlier)
    elif key == "arguments":
        want_args(p, v, earlier)
    elif key in PLUGIN_SWITCHES and v is not None and not isinstance(v, bool):
        out.append(_terror(doc, p, v, "bool", shift, earlier))


def yaml_v2_message(errors: list[UnmarshalError]) -> str:
    """``yaml.TypeError.Error()``."""
    return "yaml: unmarshal errors:\n  " + "\n  ".join(e.text for e in errors)
