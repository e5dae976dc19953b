"""What each Volcano rule checks: one function per rule, named after its code's constant in
``codes``. The rule modules in ``linter.rules.volcano`` hold the documentation and metadata and
take their ``check`` from here."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping

from linter.duplicatekeys import duplicate_keys
from linter.findings import Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano.fields import KNOWN_PLUGINS, PLUGIN_OPTION_KEYS, TOP_LEVEL_KEYS
from linter.formats.volcano.govalue import described, go_v
from linter.formats.volcano.handler import (
    ALLOCATED_NULLS,
    DRF_CONFLICT,
    PluginEntry,
    VolcanoContext,
    actions_text,
    effective_binpack,
)
from linter.formats.volcano.nodeorder import NODEORDER, NODEORDER_DEFAULTS
from linter.formats.volcano.scalars import raw_scalar
from linter.formats.volcano.structs import struct_map_field
from linter.goint import yaml_int
from linter.scalarcolumns import char_column


def unmarshal_error(ctx: VolcanoContext) -> Iterator[Violation]:
    if ctx.trim_error is not None:
        where = (ctx.trim_error.line, ctx.trim_error.column)  # in the conf's own text, as positions are
        yield Violation("Volcano rejects this file and keeps its previous configuration: it trims surrounding "
                        "whitespace first, and the conf, indented as a whole, is then invalid YAML",
                        position=where, detail=ctx.trim_error.message)
    for error in ctx.unmarshal:
        yield Violation(f"Volcano rejects this file and keeps its previous configuration: yaml: unmarshal errors: "
                        f"{error.text}", error.pointer, position=error.written_at)


CONFIGURATION_KEYS = ("name", "arguments")


def keys_at(pointer: tuple[str | int, ...]) -> tuple[str, ...]:
    """The keys Volcano reads in the mapping that holds ``pointer``'s last key (a hint must come from these:
    ``name`` is a plugin key, so suggesting it for a ``name`` written at tier level says nothing)."""
    match pointer[:-1]:
        case ():
            return TOP_LEVEL_KEYS
        case ("tiers", int()):
            return ("plugins",)
        case ("tiers", int(), "plugins", int()):
            return PLUGIN_OPTION_KEYS
        case ("configurations", int()):
            return CONFIGURATION_KEYS
    return ()


def unknown_key(ctx: VolcanoContext) -> Iterator[Violation]:
    for error in ctx.schema_errors:
        if not error.key:
            continue
        key = str(error.pointer[-1])
        close = difflib.get_close_matches(key, keys_at(error.pointer), n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        yield Violation(f"{error.message}: Volcano ignores it{hint}", error.pointer, on_key=True)


def duplicate_key(ctx: VolcanoContext) -> Iterator[Violation]:
    return duplicate_keys(ctx.document, "Volcano keeps the last value", merged_maps=struct_map_field,
                          merged_consequence="Volcano adds the later keys to the map it already holds")


def unknown_action(ctx: VolcanoContext) -> Iterator[Violation]:
    if ctx.unmarshal:  # the file never gets this far; BPL060 says why
        return
    doc = ctx.document
    data = doc.data if isinstance(doc.data, dict) else {}
    pointer = ("actions",) if "actions" in data else ()
    spot = doc.spots.get(pointer) if pointer else None
    text = actions_text(doc)
    for piece in ctx.actions:
        if piece.known:
            continue
        why = "an empty action name" if not piece.name else f"{piece.name!r} is not an action"
        # at the piece itself when the scalar is one plain or quoted line (a whole empty value: at the scalar)
        column = (char_column(doc.text, spot.line, spot.column, text, piece.offset)
                  if spot is not None and text.strip() else None)
        # piece.raw is untrimmed, as Volcano prints it: "a, b" gives two spaces before "b", and an empty piece
        # leaves Volcano's trailing space before our note (tests/linter/test_wild_corpus.py pins both)
        yield Violation(f"Volcano rejects this file and keeps its previous configuration: failed to find Action "
                        f"{piece.raw} ({why})", pointer,
                        position=(spot.line, column) if spot is not None and column is not None else None)


def drf_proportion_conflict(ctx: VolcanoContext) -> Iterator[Violation]:
    if ctx.unmarshal:
        return
    for tier in ctx.drf_conflict_tiers:
        yield Violation(f"Volcano rejects this file and keeps its previous configuration: {DRF_CONFLICT} "
                        f"(tier {tier})", ("tiers", tier))


def unknown_plugin(ctx: VolcanoContext) -> Iterator[Violation]:
    for plugin in ctx.plugins:
        if plugin.name in KNOWN_PLUGINS or any(e.pointer[:len(plugin.pointer)] == plugin.pointer
                                               and e.pointer != (*plugin.pointer, "arguments")
                                               for e in ctx.unmarshal):
            continue  # an entry (or its name) that does not decode is BPL060's
        close = difflib.get_close_matches(plugin.name, KNOWN_PLUGINS, n=1, cutoff=0.7)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        pointer = (*plugin.pointer, "name") if "name" in plugin.option else plugin.pointer
        yield Violation(f"unknown plugin {plugin.name!r}: Volcano skips it every session and logs "
                        f"\"Failed to get plugin {plugin.name}.\"{hint}", pointer)


def _ignored_ints(ctx: VolcanoContext, entry: PluginEntry, defaults: Mapping[str, int]) -> Iterator[Violation]:
    """``Arguments.GetInt``: a value yaml.v2 did not decode to a Go int is dropped and the default kept."""
    args = entry.arguments
    for key, default in defaults.items():
        value = args[key]
        if yaml_int(value) is not None:
            continue
        pointer = (*entry.arguments_pointer, key)
        # an int is ignored only when it is outside int64
        what = described(value, pointer in ctx.document.quoted, "an integer outside int64")
        yield Violation(f"{key} is {what}: Volcano only takes YAML integers, ignores it and uses {default} "
                        f"(it logs \"{bp.could_not_parse_log(value, key)}\")", pointer)


def binpack_ignored_value(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        yield from _ignored_ints(ctx, entry, dict.fromkeys(bp.int_keys_read(entry.arguments), bp.DEFAULT_WEIGHT))


def binpack_weight_zero(ctx: VolcanoContext) -> Iterator[Violation]:
    entries = ctx.binpack_entries()
    registering = [e for e in entries if yaml_int(e.arguments.get(bp.WEIGHT)) != 0]
    for entry in entries:
        if yaml_int(entry.arguments.get(bp.WEIGHT)) != 0:
            continue
        skipped = ("binpack.weight is 0: this occurrence does not register binpack's node-order function "
                   "(Volcano logs \"binpack weight is zero, skip node order function\")")
        if registering and entry.switch("enableNodeOrder"):  # another occurrence's function is called for it
            last = registering[-1]
            yield Violation(f"{skipped}, but the one tiers[{last.tier}].plugins[{last.index}] registered is still "
                            "called for it, so that occurrence's arguments score once more",
                            (*entry.arguments_pointer, bp.WEIGHT))
        else:
            yield Violation(f"{skipped}, so binpack scores nothing", (*entry.arguments_pointer, bp.WEIGHT))


def binpack_negative_weight(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        weight = yaml_int(entry.arguments.get(bp.WEIGHT))
        if weight is not None and weight < 0:
            yield Violation(f"binpack.weight is {weight}: Volcano keeps a negative weight and multiplies every "
                            f"binpack score by it, ranking the fullest nodes last; weights must not be negative",
                            (*entry.arguments_pointer, bp.WEIGHT))


def binpack_negative_resource_weight(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        for key in bp.int_keys_read(entry.arguments):
            if key == bp.WEIGHT:
                continue
            weight = yaml_int(entry.arguments[key])
            if weight is not None and weight < 0:
                yield Violation(f"{key} is {weight}: Volcano silently resets a negative resource weight to 1; "
                                f"weights must not be negative (use 0 to leave the resource out)",
                                (*entry.arguments_pointer, key))


def binpack_overridden_weight(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        effective = effective_binpack(entry).resources
        for name, own_key in (("cpu", bp.CPU), ("memory", bp.MEMORY)):
            key = bp.RESOURCE_PREFIX + name
            if key in entry.arguments:
                yield Violation(f"{key} has no effect: Volcano always sets the {name} weight from {own_key} "
                                f"(here {effective[name]}); set {own_key} instead", (*entry.arguments_pointer, key),
                                on_key=True)


def binpack_resources_not_string(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        if bp.RESOURCES not in entry.arguments:
            continue
        value = entry.arguments[bp.RESOURCES]
        if isinstance(value, str) or value is None:
            continue
        if isinstance(value, list):
            names = ", ".join(str(go_v(v)) for v in value)
            fix = f"write it as one string: \"binpack.resources: {names}\""
            what = "a YAML list"
        else:
            fix, what = "write a comma-separated string of resource names", f"not a string ({go_v(value)})"
        yield Violation(f"binpack.resources is {what}: Volcano only reads a comma-separated string and ignores "
                        f"it, so no extra resource is scored; {fix}", (*entry.arguments_pointer, bp.RESOURCES))


def binpack_unlisted_resource(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        listed = bp.listed_resources(entry.arguments)
        for key in entry.arguments:
            if not key.startswith(bp.RESOURCE_PREFIX) or len(key) == len(bp.RESOURCE_PREFIX):
                continue
            name = key[len(bp.RESOURCE_PREFIX):]
            if name in ("cpu", "memory") or name in listed:
                continue
            shown = ", ".join(listed) if listed else "nothing"
            yield Violation(f"{key} is ignored: {name!r} is not listed in binpack.resources (which lists {shown}), "
                            f"so Volcano never scores it", (*entry.arguments_pointer, key), on_key=True)


_KNOWN_ARGUMENTS = (bp.WEIGHT, bp.CPU, bp.MEMORY, bp.RESOURCES)


def binpack_unknown_argument(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        for key in entry.arguments:
            if bp.is_known_key(key):
                continue
            close = difflib.get_close_matches(key, _KNOWN_ARGUMENTS, n=1, cutoff=0.7)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            yield Violation(f"binpack does not read argument {key!r}; Volcano ignores it{hint}",
                            (*entry.arguments_pointer, key), on_key=True)


def binpack_node_order_disabled(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        if entry.option.get("enableNodeOrder") is False:
            pointer = (*entry.pointer, "enableNodeOrder")
            written = raw_scalar(ctx.document, pointer, False)
            why = (f"enableNodeOrder: {written} is false for Volcano (yaml.v2 leaves the switch unset, so true, "
                   "only for null, ~ or no value)" if written in ALLOCATED_NULLS else "enableNodeOrder is false")
            yield Violation(f"{why}: Volcano never calls binpack's node-order function, so binpack has no effect",
                            pointer)


def duplicate_plugin(ctx: VolcanoContext) -> Iterator[Violation]:
    first: dict[str, tuple[int, int]] = {}
    for entry in ctx.plugins:
        if not entry.name:
            continue
        if entry.name not in first:
            first[entry.name] = (entry.tier, entry.index)
            continue
        tier, index = first[entry.name]
        applies = ("the arguments of the last occurrence with a non-zero binpack.weight (the only ones that "
                   "register it) apply to every occurrence" if entry.name == "binpack"
                   else "the last occurrence's arguments apply to every occurrence")
        yield Violation(f"plugin {entry.name!r} is already listed at tiers[{tier}].plugins[{index}]: Volcano keeps "
                        f"one callback per plugin name, so {applies}",
                        (*entry.pointer, "name") if "name" in entry.option else entry.pointer)


def nodeorder_unknown_argument(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.plugins:
        if entry.name != NODEORDER:
            continue
        for key in entry.arguments:
            if key in NODEORDER_DEFAULTS:
                continue
            # a "nodeorder." prefix is a common slip (Volcano's own nodeorder page writes it): match without it
            bare = key.removeprefix(f"{NODEORDER}.") if isinstance(key, str) else str(key)
            close = difflib.get_close_matches(bare, list(NODEORDER_DEFAULTS), n=1, cutoff=0.7)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            yield Violation(f"nodeorder does not read argument {key!r}; Volcano ignores it{hint}",
                            (*entry.arguments_pointer, key), on_key=True)


def nodeorder_ignored_value(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.plugins:
        if entry.name != NODEORDER:
            continue
        written = {key: default for key, default in NODEORDER_DEFAULTS.items() if key in entry.arguments}
        yield from _ignored_ints(ctx, entry, written)
