"""The Volcano ``volcano-scheduler.conf`` format: recognise it and load it the way Volcano does.

Volcano (``UnmarshalSchedulerConf`` at ed72c7c) loads the whitespace-trimmed file with
yaml.v2 and rejects it on the first of: a type error, a tier holding both ``proportion`` and
``drf`` with ``enableHierarchy: true``, an ``actions`` piece that names no action. A rejected
file is only logged; Volcano keeps its previous configuration, so the linter must say it.
The context carries every stage's result (all problems, not just Volcano's first) and, for an
accepted file, the effective :class:`~linter.model.VolcanoModel`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from linter import schema
from linter.formats.volcano.decode import UnmarshalError, unmarshal_errors, yaml_v2_message
from linter.formats.volcano.fields import KNOWN_ACTIONS, PLUGIN_SWITCHES
from linter.formats.volcano.nodeorder import node_order_plugin
from linter.formats.volcano.predicates import called_predicates, other_predicates
from linter.formats.volcano.scalars import raw_scalar, scalar_string
from linter.formats.volcano.structs import struct_view
from linter.model import SchedulerModel, VolcanoBinpackArgs, VolcanoModel
from linter.scoring.volcano import go_trim_space, parse_binpack_arguments
from linter.source import Document, Pointer

if TYPE_CHECKING:
    from linter.formats.volcano.trim import TrimError

KIND = "volcano"
SCHEMA_NAME = "volcano-scheduler-conf"
CONFIGMAP_KEY = "volcano-scheduler.conf"
DRF_CONFLICT = "proportion and drf with hierarchy enabled conflicts"


@dataclass(frozen=True)
class PluginEntry:
    """One ``tiers[i].plugins[j]`` entry as Volcano sees it."""

    tier: int
    index: int
    name: str
    option: dict[str, Any]
    pointer: Pointer

    @property
    def arguments(self) -> dict[str, Any]:
        args = self.option.get("arguments")
        return args if isinstance(args, dict) else {}

    @property
    def arguments_pointer(self) -> Pointer:
        return (*self.pointer, "arguments")

    def switch(self, key: str, default: bool = True) -> bool:
        """A ``*bool`` switch after ``ApplyPluginConfDefaults`` (absent = true for most)."""
        value = self.option.get(key)
        return value if isinstance(value, bool) else default


@dataclass(frozen=True)
class ActionPiece:
    """One comma-separated piece of ``actions``: the untrimmed text Volcano's error quotes."""

    raw: str
    name: str
    offset: int = 0  # where ``name`` starts in the whole ``actions`` string

    @property
    def known(self) -> bool:
        return self.name in KNOWN_ACTIONS


@dataclass
class VolcanoContext:
    document: Document
    model: SchedulerModel | None = None  # a VolcanoModel when Volcano accepts the file
    kind: str = KIND
    unmarshal: list[UnmarshalError] = field(default_factory=list)
    plugins: list[PluginEntry] = field(default_factory=list)
    drf_conflict_tiers: list[int] = field(default_factory=list)
    actions: list[ActionPiece] = field(default_factory=list)
    schema_errors: list[schema.SchemaError] = field(default_factory=list)
    rejection: str | None = None  # Volcano's exact error for this file, None when it loads
    trim_error: TrimError | None = None  # the conf is valid YAML only before Volcano trims it

    def binpack_entries(self) -> list[PluginEntry]:
        return [p for p in self.plugins if p.name == "binpack"]


# yaml.v2's prepare() leaves a *bool nil only for an untagged null written `null`, `~` or nothing; it
# allocates the bool for any other node, and the other null spellings then resolve to its zero value.
ALLOCATED_NULLS = frozenset({"Null", "NULL"})


def false_null_switches(doc: Document, pointer: Pointer, option: dict[str, Any]) -> list[str]:
    """The ``*bool`` switches of a plugin option written ``Null`` or ``NULL``: false for Volcano, not absent."""
    return [key for key in PLUGIN_SWITCHES if key in option and option[key] is None
            and (*pointer, key) not in doc.quoted
            and raw_scalar(doc, (*pointer, key), None, keep_tag=True) in ALLOCATED_NULLS]


def _plugins(doc: Document) -> list[PluginEntry]:
    data = doc.data if isinstance(doc.data, dict) else {}
    tiers = data.get("tiers")
    out: list[PluginEntry] = []
    for i, tier in enumerate(tiers if isinstance(tiers, list) else []):
        plugins = tier.get("plugins") if isinstance(tier, dict) else None
        for j, option in enumerate(plugins if isinstance(plugins, list) else []):
            pointer: Pointer = ("tiers", i, "plugins", j)
            opt = option if isinstance(option, dict) else {}
            if nulls := false_null_switches(doc, pointer, opt):
                opt = {**opt, **dict.fromkeys(nulls, False)}
            name = scalar_string(doc, (*pointer, "name"), opt.get("name"))
            out.append(PluginEntry(i, j, name, opt, pointer))
    return out


def _drf_conflicts(plugins: list[PluginEntry]) -> list[int]:
    tiers: dict[int, tuple[bool, bool]] = {}
    for p in plugins:
        hdrf, proportion = tiers.get(p.tier, (False, False))
        hdrf = hdrf or (p.name == "drf" and p.option.get("enableHierarchy") is True)
        proportion = proportion or p.name == "proportion"
        tiers[p.tier] = (hdrf, proportion)
    return sorted(t for t, (hdrf, proportion) in tiers.items() if hdrf and proportion)


def actions_text(doc: Document) -> str:
    """``actions`` as the string Volcano splits on commas."""
    data = doc.data if isinstance(doc.data, dict) else {}
    value = data.get("actions")
    return "" if isinstance(value, (dict, list)) else scalar_string(doc, ("actions",), value)


def _actions(doc: Document) -> list[ActionPiece]:
    pieces: list[ActionPiece] = []
    start = 0
    for piece in actions_text(doc).split(","):
        name = go_trim_space(piece)
        pieces.append(ActionPiece(piece, name, start + (piece.find(name) if name else 0)))
        start += len(piece) + 1
    return pieces


def effective_binpack(entry: PluginEntry) -> VolcanoBinpackArgs:
    """The binpack weights Volcano computes for this entry; ``enableNodeOrder: false`` also stops scoring."""
    args = parse_binpack_arguments(entry.arguments)
    return dataclasses.replace(args, enable_node_order=args.enable_node_order and entry.switch("enableNodeOrder"))


def first_line_indented(text: str) -> bool:
    """Whether the first line with content starts with whitespace (what Volcano's TrimSpace removes)."""
    stripped = text.lstrip()
    if not stripped:
        return False
    start = len(text) - len(stripped)
    return start != text.rfind("\n", 0, start) + 1


def analyze(document: Document) -> VolcanoContext:
    written, document = document, struct_view(document)
    ctx = VolcanoContext(document)
    if first_line_indented(document.text):  # only then can Volcano's trim change how the text parses
        from linter.formats.volcano.trim import trimmed_syntax_error

        ctx.trim_error = trimmed_syntax_error(document.text)
    if ctx.trim_error is not None:  # Volcano never gets past yaml.v2's syntax check
        ctx.rejection = ctx.trim_error.message
        return ctx
    ctx.unmarshal = unmarshal_errors(written)  # every store of a repeated key, as written
    if isinstance(document.data, dict):
        ctx.schema_errors = schema.validate(document, SCHEMA_NAME)
    ctx.plugins = _plugins(document)
    ctx.drf_conflict_tiers = _drf_conflicts(ctx.plugins)
    ctx.actions = _actions(document)
    unknown = [a for a in ctx.actions if not a.known]
    if ctx.unmarshal:
        ctx.rejection = yaml_v2_message(ctx.unmarshal)
    elif ctx.drf_conflict_tiers:
        ctx.rejection = DRF_CONFLICT
    elif unknown:
        ctx.rejection = f"failed to find Action {unknown[0].raw}"
    else:
        ctx.model = VolcanoModel(
            actions=tuple(a.name for a in ctx.actions),
            binpack=tuple(effective_binpack(p) for p in ctx.binpack_entries()),
            other_node_order=tuple(
                plugin for p in ctx.plugins if p.switch("enableNodeOrder")
                and (plugin := node_order_plugin(p.name, p.arguments)) is not None),
            predicates=called_predicates(ctx.plugins),
            other_predicates=other_predicates(ctx.plugins),
        )
    return ctx


class VolcanoHandler:
    kind = KIND

    def matches(self, data: Any) -> bool:
        """A mapping without apiVersion/kind that has ``actions`` or ``tiers``."""
        return (isinstance(data, dict) and "apiVersion" not in data and "kind" not in data
                and ("actions" in data or "tiers" in data))

    def analyze(self, document: Document) -> VolcanoContext:
        return analyze(document)


HANDLER = VolcanoHandler()
