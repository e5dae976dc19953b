"""The Volcano rules about plugin arguments read when a session opens (:mod:`.sessionargs`): values that make
Volcano exit (BPL415, BPL416) and ``predicates`` arguments it never reads or ignores (BPL417). The rule
modules take their ``check`` from here, as the other Volcano rules take theirs from ``checks``."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from linter.findings import Violation
from linter.formats.volcano import sessionargs as sa
from linter.formats.volcano.govalue import described, go_v
from linter.formats.volcano.handler import PluginEntry, VolcanoContext
from linter.formats.volcano.mapstructure import INT, Decoded, GoType, decode, go_type_name
from linter.formats.volcano.reschedulingargs import ignored_arguments, threshold_panics
from linter.formats.volcano.scalars import raw_scalar
from linter.gofmt import format_duration
from linter.goint import wrap_int64
from linter.source import Pointer

_EXITS = "Volcano exits (klog.Fatal) when a session opens: the scheduler crash-loops"
_EXPECTED = {"int": "an integer", "float": "a number", "string": "a string", "bool": "a boolean", "slice": "a list",
             "map": "a mapping", "struct": "a mapping"}


def _what(ctx: VolcanoContext, pointer: Pointer, value: object) -> str:
    return described(value, pointer in ctx.document.quoted)


def _path(key: str, rest: Pointer) -> str:
    return key + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in rest)


def _value_at(value: object, rest: Pointer) -> object:
    for part in rest:
        value = value[part]  # type: ignore[index]
    return value


def _decode_failure(ctx: VolcanoContext, entry: PluginEntry, key: str, target: GoType, got: Decoded) -> Violation:
    """``Get[T]``'s ``klog.Fatalf``, reported at the failing value written first."""
    base = (*entry.arguments_pointer, key)
    spots = ctx.document.spots
    first = min(got.errors, key=lambda e: (spots[(*base, *e.at)].line, spots[(*base, *e.at)].column)
                if (*base, *e.at) in spots else (0, 0))
    value = _value_at(entry.arguments[key], first.at)
    pointer = (*base, *first.at)
    return Violation(f"{_path(key, first.at)} is {_what(ctx, pointer, value)}, not {_EXPECTED[first.target.kind]}: "
                     f"{_EXITS}", pointer,
                     detail=f"Could not parse argument for key {key} to type {target.name}: {got.message()}")


def _gets(ctx: VolcanoContext, entry: PluginEntry, gets: tuple[tuple[str, GoType], ...]) -> Iterator[
        tuple[str, Decoded, Violation | None]]:
    for key, target in gets:
        if key in entry.arguments:
            got = decode(entry.arguments[key], target)
            yield key, got, _decode_failure(ctx, entry, key, target, got) if got.errors else None


def _switch(entry: PluginEntry, key: str, default: bool) -> bool:
    read = sa.bool_argument(entry.arguments[key]) if key in entry.arguments else None
    return default if read is None else read


def _volume_binding(ctx: VolcanoContext) -> Iterator[Violation]:
    """The set-up ``volumeBindingPluginOnce`` runs, with the first entry that has volume binding on."""
    entry = next((e for e in ctx.plugins if e.name == sa.PREDICATES
                  and _switch(e, sa.VOLUME_BINDING_ENABLE, True)), None)
    if entry is None:
        return
    read = {}
    for key, got, failure in _gets(ctx, entry, sa.VOLUME_BINDING_GETS):
        if failure is not None:
            yield failure
        else:
            read[key] = got.value if got.value is not None else 0  # null decodes to the zero value
    timeout = read.get(sa.VOLUME_BINDING_TIMEOUT)
    if isinstance(timeout, int) and timeout < 0 and entry.arguments[sa.VOLUME_BINDING_TIMEOUT] is not None:
        weight = read.get(sa.VOLUME_BINDING_WEIGHT, sa.VOLUME_BINDING_DEFAULT_WEIGHT)
        pointer = (*entry.arguments_pointer, sa.VOLUME_BINDING_TIMEOUT)
        written = raw_scalar(ctx.document, pointer, entry.arguments[sa.VOLUME_BINDING_TIMEOUT])
        read_as = "" if written == str(timeout) else f" (Volcano reads {written} as {timeout})"
        yield Violation(f"{sa.VOLUME_BINDING_TIMEOUT} is negative{read_as}: volumebinding.New refuses it; {_EXITS}",
                        pointer,
                        detail=f"failed to create volume binding plugin with args &{{Weight:{weight} "
                               f"VolumeBindingArgs:0xc...}}: bindTimeoutSeconds: Invalid value: {timeout}: invalid "
                               "BindTimeoutSeconds, should not be a negative value")


def _dra(ctx: VolcanoContext, entry: PluginEntry) -> Iterator[Violation]:
    """``setUpDynamicResourcesArgs`` and ``dynamicresources.New``, for every entry (the gate is on)."""
    for key, got, failure in _gets(ctx, entry, ((sa.DRA_FILTER_TIMEOUT, INT),)):
        if failure is not None:
            yield failure
            continue
        secs = got.value
        if not isinstance(secs, int) or secs < 0:  # Volcano keeps the default for a negative value
            continue
        nanos = wrap_int64(secs * 1_000_000_000)  # time.Duration(secs) * time.Second wraps past int64
        if nanos < 0:
            yield Violation(f"{key} {secs} overflows time.Duration: dynamicresources.New refuses it; {_EXITS}",
                            (*entry.arguments_pointer, key),
                            detail=f"failed to create dra plugin with err: filterTimeout: Invalid value: "
                                   f"\"{format_duration(nanos)}\": must be zero or positive")


def _asserted_strings(ctx: VolcanoContext) -> Iterator[tuple[PluginEntry, str]]:
    """The (entry, key) pairs tdm and rescheduling assert to be strings."""
    tiers_seen: set[int] = set()
    for entry in ctx.plugins:
        if entry.name == sa.TDM:
            yield from ((entry, k) for k in entry.arguments if sa.TDM_ZONE in k or k == sa.TDM_EVICT_PERIOD)
        elif entry.name == sa.RESCHEDULING and entry.tier not in tiers_seen:  # parsed: each tier's first one
            tiers_seen.add(entry.tier)
            yield from ((entry, k) for k in sa.RESCHEDULING_STRINGS if k in entry.arguments)


def _panics(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry, key in _asserted_strings(ctx):
        value = entry.arguments[key]
        if isinstance(value, str):
            continue
        pointer = (*entry.arguments_pointer, key)
        held = "nil" if value is None else go_type_name(value)
        yield Violation(f"{key} is {_what(ctx, pointer, value)}, not a string: {entry.name} asserts it is one and "
                        "Volcano panics when a session opens: the scheduler crash-loops", pointer,
                        detail=f"panic: interface conversion: interface {{}} is {held}, not string")


def _threshold_panic(ctx: VolcanoContext) -> Iterator[Violation]:
    for pointer, value in threshold_panics(ctx):
        rest = pointer[len(("tiers", 0, "plugins", 0, "arguments")):]
        held = "nil" if value is None else go_type_name(value)
        yield Violation(f"{_path(str(rest[0]), rest[1:])} is {_what(ctx, pointer, value)}, not an integer: "
                        "Volcano panics in its first session's shuffle action: the scheduler crash-loops", pointer,
                        detail=f"panic: interface conversion: interface {{}} is {held}, not int")


def argument_exits(ctx: VolcanoContext) -> Iterator[Violation]:
    if ctx.rejection is not None:  # Volcano never runs this conf; BPL060/BPL400/BPL401 say why
        return
    for entry in ctx.plugins:
        for _, _, failure in _gets(ctx, entry, sa.SESSION_GETS.get(entry.name, ())):
            if failure is not None:
                yield failure
        if entry.name == sa.PREDICATES:
            yield from _dra(ctx, entry)
    yield from _volume_binding(ctx)
    yield from _panics(ctx)
    yield from _threshold_panic(ctx)


_Switches = dict[str, tuple[bool, PluginEntry | None]]  # switch -> its value and the entry that set it


def deviceshare_exits(ctx: VolcanoContext) -> Iterator[Violation]:
    """``enablePredicate`` over the deviceshare entries, two sessions long: the switches it sets are package
    variables, so an entry's check sees what later entries set in the session before."""
    if ctx.rejection is not None:
        return
    entries = [e for e in ctx.plugins if e.name == sa.DEVICESHARE]
    state: _Switches = dict.fromkeys((sa.GPU_SHARING, sa.GPU_NUMBER, sa.VGPU), (False, None))
    for session in ("first", "second"):
        for entry in entries:
            for key in state:
                read = sa.bool_argument(entry.arguments[key]) if key in entry.arguments else None
                if read is not None:
                    state[key] = (read, entry)
            on = {key for key, (value, _) in state.items() if value}
            if {sa.GPU_SHARING, sa.GPU_NUMBER} <= on:
                yield _conflict(entry, session, (sa.GPU_SHARING, sa.GPU_NUMBER), state, sa.SHARING_AND_NUMBER)
                return
            if sa.VGPU in on and on & {sa.GPU_SHARING, sa.GPU_NUMBER}:
                share = sa.GPU_SHARING if sa.GPU_SHARING in on else sa.GPU_NUMBER
                yield _conflict(entry, session, (share, sa.VGPU), state, sa.SHARE_AND_VGPU)
                return


def _conflict(entry: PluginEntry, session: str, keys: tuple[str, str], state: _Switches, fatal: str) -> Violation:
    own = [k for k in keys if state[k][1] is entry]
    here = own[-1] if own else keys[-1]  # the switch this entry turned on last; the other may be another's
    other = next(k for k in keys if k != here)
    source = state[other][1]
    where = (" in the same entry" if source is entry or source is None else
             f" (from tiers[{source.tier}].plugins[{source.index}], process-wide)")
    return Violation(f"{here} with {other} on{where}: Volcano exits (klog.Fatal) building this entry in the "
                     f"{session} session",
                     (*entry.arguments_pointer, here), detail=fatal)


_DRA_GATE = "DRA follows the DynamicResourceAllocation feature gate (on by default, locked on from Kubernetes 1.35)"


def predicates_ignored_argument(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.plugins:
        if entry.name != sa.PREDICATES:
            continue
        proportional = sa.bool_argument(entry.arguments.get("predicate.ProportionalEnable")) is True
        for key, value in entry.arguments.items():
            pointer = (*entry.arguments_pointer, key)
            if key in sa.PREDICATE_SWITCHES:
                if sa.bool_argument(value) is None:
                    default = "true" if sa.PREDICATE_SWITCHES[key] else "false"
                    yield Violation(f"{key} is {_what(ctx, pointer, value)}: Volcano takes only a boolean, logs "
                                    f"\"Could not parse argument: {go_v(value)} for key {key} to bool\" and keeps "
                                    f"{default}", pointer)
            elif key == sa.VOLUME_BINDING_SHAPE:
                yield Violation(f"{key} is read only with the StorageCapacityScoring feature gate on, off by default "
                                "in the Kubernetes 1.36 code Volcano is built with: Volcano ignores it", pointer,
                                on_key=True)
            elif key in sa.PREDICATE_ARGUMENTS:
                continue
            elif key == sa.DRA_ENABLE:
                if sa.bool_argument(value) is not True:  # true asks for what the gate already does
                    yield Violation(f"Volcano never reads {key}: {_DRA_GATE}, so this does not turn it off",
                                    pointer, on_key=True)
            elif key in sa.MOVED_KEYS:
                if sa.bool_argument(value) is not False and not _moved_key_set(ctx, key):
                    yield Violation(f"predicates no longer reads {key}: Volcano ignores it, so the setting stays off; "
                                    f"it is now {sa.MOVED_KEYS[key]}", pointer, on_key=True)
            elif key.startswith(sa.MOVED_RESOURCES):
                if proportional:
                    yield Violation(f"predicates no longer reads {key}: proportional scheduling is now the "
                                    "resource-strategy-fit plugin's proportional argument", pointer, on_key=True)
            else:
                hint = f" (did you mean {close!r}?)" if (close := _closest_predicate_argument(key)) else ""
                yield Violation(f"predicates does not read argument {key!r}; Volcano ignores it{hint}", pointer,
                                on_key=True)


def _closest_predicate_argument(key: str) -> str | None:
    """The argument ``key`` was probably meant to be. Names are compared without the shared ``predicate.``
    prefix and ``Enable`` suffix, which would otherwise make any two switches look alike
    (``predicate.VGPU4pdEnable`` is not ``predicate.CacheEnable``)."""
    def bare(name: str) -> str:
        return name.removeprefix("predicate.").removesuffix("Enable")

    by_bare = {bare(name): name for name in sa.PREDICATE_ARGUMENTS}
    close = difflib.get_close_matches(bare(key), list(by_bare), n=1, cutoff=0.7)
    return by_bare[close[0]] if close else None


def _moved_key_set(ctx: VolcanoContext, key: str) -> bool:
    """Whether a deviceshare entry turns on the switch an old predicates key asked for."""
    new_key = sa.MOVED_SWITCHES.get(key)
    return new_key is not None and any(
        e.name == sa.DEVICESHARE and sa.bool_argument(e.arguments.get(new_key)) is True for e in ctx.plugins)


def rescheduling_ignored_argument(ctx: VolcanoContext) -> Iterator[Violation]:
    for pointer, message, on_key in ignored_arguments(ctx):
        yield Violation(message, pointer, on_key=on_key)
