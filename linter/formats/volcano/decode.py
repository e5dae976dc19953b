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

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from linter.formats.volcano.repeats import EarlierStore, earlier_stores
from linter.source import Document, Pointer

KNOWN_ACTIONS = ("enqueue", "allocate", "backfill", "preempt", "reclaim", "shuffle", "gangpreempt", "gangreclaim")
KNOWN_PLUGINS = (
    "priority", "gang", "conformance", "drf", "proportion", "capacity", "predicates", "nodeorder", "binpack",
    "deviceshare", "resource-strategy-fit", "tdm", "overcommit", "sla", "task-topology", "numa-aware", "cdp",
    "rescheduling", "usage", "pdb", "nodegroup", "network-topology-aware", "extender", "resourcequota",
)
# conf.PluginOption's *bool fields (note the mixed "enable"/"enabled" spelling, as in Volcano).
PLUGIN_SWITCHES = (
    "enableJobOrder", "enableHierarchy", "enableJobReady", "enableJobPipelined", "enableTaskOrder",
    "enablePreemptable", "enableReclaimable", "enablePreemptive", "enableQueueOrder", "enabledClusterOrder",
    "enablePredicate", "enableBestNode", "enableNodeOrder", "enableTargetJob", "enableReservedNodes",
    "enableJobEnqueued", "enabledVictim", "enableJobStarving", "enabledOverused", "enabledAllocatable",
    "enabledHyperNodeOrder", "enabledSubJobReady", "enabledSubJobPipelined", "enabledSubJobOrder",
    "enabledHyperNodeGradient",
)
PLUGIN_OPTION_KEYS = ("name", *PLUGIN_SWITCHES, "arguments")
TOP_LEVEL_KEYS = ("actions", "tiers", "configurations", "metrics")

_ARGS_TYPE = "map[string]interface {}"
_RAW_TOKEN = re.compile(r"[^\s,\]\}#]+")


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


def raw_scalar(doc: Document, pointer: Pointer, value: Any, *, keep_tag: bool = False) -> str:
    """The source text of a scalar, as yaml.v2 keeps it in ``node.value``.

    Strings are their own text; for plain non-strings (ints, floats, booleans, null) the
    token is read back from the document text at the node's position (``010`` stays ``010``).
    The node starts at its anchor or tag, which are not part of the value (``!!int "7"`` is
    ``7``); ``keep_tag`` returns a tag instead of what follows it.
    """
    if isinstance(value, str):
        return value
    spot = doc.spots.get(tuple(pointer))
    lines = doc.text.splitlines()
    if spot is not None and 0 < spot.line <= len(lines):
        line, at = lines[spot.line - 1], spot.column - 1
        while (match := _RAW_TOKEN.match(line, at)) and match.group(0)[0] in "&!":
            if keep_tag and match.group(0)[0] == "!":
                return match.group(0)
            at = match.end() + len(line[match.end():]) - len(line[match.end():].lstrip(" \t"))
        if match:
            token = match.group(0)
            quote = token[0]
            if quote in "'\"" and (end := line.find(quote, at + 1)) > at:
                return line[at + 1:end]  # a tagged quoted scalar: !!int "7"
            return token
    if value is None:
        return ""
    return go_v(value)


def scalar_string(doc: Document, pointer: Pointer, value: Any) -> str:
    """The value a yaml.v2 ``string`` field gets from a scalar node (null -> ""; a mapping or list,
    a type error reported separately, -> "")."""
    return "" if value is None or isinstance(value, (dict, list)) else raw_scalar(doc, pointer, value)


_DATE = r"(\d{4})-(\d{1,2})-(\d{1,2})"
_CLOCK = r"(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?"
_TIMESTAMP = re.compile(rf"{_DATE}(?:[Tt]{_CLOCK}(?:Z|[+-]\d\d:\d\d)| {_CLOCK})?")


def is_timestamp(text: str) -> bool:
    """yaml.v2's ``parseTimestamp``: one of its ``time.Parse`` layouts, with valid fields."""
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        return False
    year, month, day, *clock = (int(g) if g else 0 for g in match.groups())
    hour, minute, second = (clock[0] or clock[3], clock[1] or clock[4], clock[2] or clock[5])
    days = [31, 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30,
            31, 30, 31]
    return 1 <= month <= 12 and 1 <= day <= days[month - 1] and hour < 24 and minute < 60 and second < 60


def _tag(doc: Document, pointer: Pointer, value: Any, earlier: bool = False) -> str:
    written = "" if earlier else raw_scalar(doc, pointer, None, keep_tag=True)
    if written.startswith("!") and written != "!":  # terror names the node's own tag when it has one
        return written
    if isinstance(value, str) and tuple(pointer) not in doc.quoted and is_timestamp(value):
        return "!!timestamp"  # a plain date stays a string, but resolve() tags it as a timestamp
    if isinstance(value, dict):
        return "!!map"
    if isinstance(value, list):
        return "!!seq"
    if isinstance(value, bool):
        return "!!bool"
    if isinstance(value, int):
        return "!!int"
    if isinstance(value, float):
        return "!!float"
    if value is None:
        return "!!null"
    return "!!str"


def _terror(doc: Document, pointer: Pointer, value: Any, go_type: str, shift: int,
            earlier: EarlierStore | None = None) -> UnmarshalError:
    """``decoder.terror``: scalar values are shown in backticks, cut to 7 bytes + ``...`` past 10.
    ``earlier``: a store of this key before its last one (its own line and text)."""
    spot = doc.spots.get(tuple(pointer))
    line = (earlier.line if earlier else spot.line if spot else doc.start_line) - shift
    tag = _tag(doc, pointer, value, earlier is not None)
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


def go_v(value: Any) -> str:
    """Go's ``%v`` of what yaml.v2 decoded into ``interface{}`` (used in Volcano's log texts)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "<nil>"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _go_float(value)
    if isinstance(value, list):
        return "[" + " ".join(go_v(v) for v in value) + "]"
    if isinstance(value, dict):  # Go prints maps with sorted keys
        return "map[" + " ".join(f"{k}:{go_v(value[k])}" for k in sorted(value, key=str)) + "]"
    return str(value)


def _go_float(value: float) -> str:
    """``strconv.FormatFloat(v, 'g', -1, 64)``: shortest digits, exponent form below 1e-4 or from 1e6."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    assert isinstance(exponent, int)
    ds = "".join(str(d) for d in digits)
    exp = len(ds) + exponent - 1  # decimal exponent of the first digit
    neg = "-" if sign else ""
    if exp < -4 or exp >= 6:  # shortest 'g' decides with precision 6: 1e6 prints as 1e+06
        mantissa = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
        return f"{neg}{mantissa}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    point = exp + 1
    if point <= 0:
        return f"{neg}0.{'0' * -point}{ds}"
    if point >= len(ds):
        return neg + ds + "0" * (point - len(ds))
    return f"{neg}{ds[:point]}.{ds[point:]}"
