"""Plugin construction (``NewFramework``) per profile, and the effective score-plugin weights.

Per profile, in the scheduler's order: build every needed plugin (only NodeResourcesFit can
fail here: its args are validated now, with paths relative to the args), fill each extension
point from its ``enabled`` list, expand ``multiPoint``, require one queueSort and a bind
plugin, then compute score weights (``plugins.score.enabled`` first, then multiPoint; 0 -> 1;
the int64 "overflow" guard, which a negative weight can trip for the plugins after it).
Each failure is reported with the full ``initializing profiles: ...`` prefix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from linter.formats.kubesched import codes as c
from linter.formats.kubesched.argsvalid import validate_fit
from linter.formats.kubesched.builds import VANILLA, Build
from linter.formats.kubesched.defaults import PluginRef, Profile
from linter.formats.kubesched.outoftree_args.construct import construct
from linter.formats.kubesched.registry import EXTENSION_ORDER, UNMODELLED_POINTS
from linter.gofmt import FieldError, aggregate
from linter.goint import INT64_MAX, wrap_int64
from linter.source import Pointer

MAX_NODE_SCORE = 100
MAX_TOTAL_SCORE = INT64_MAX


@dataclass(frozen=True)
class InitError:
    code: str
    message: str  # complete scheduler text for this error alone
    pointer: Pointer
    field_errors: tuple[FieldError, ...] = ()  # NodeResourcesFit args errors (for per-line findings)
    pointers: tuple[Pointer, ...] = ()
    hint: str = ""  # binpack-lint's "did you mean", shown after the scheduler's text, never inside it


@dataclass
class Built:
    """What one profile's framework ends up with."""

    needed: set[str] = field(default_factory=set)
    points: dict[str, list[str]] = field(default_factory=dict)  # extension point -> plugin names
    score_weights: dict[str, int] = field(default_factory=dict)
    error: InitError | None = None


def prefix(profile: Profile) -> str:
    return f"initializing profiles: creating profile for scheduler name {profile.shown_name}: "


def _implements(name: str, point: str, plugins: Mapping[str, frozenset[str] | None]) -> bool | None:
    points = plugins.get(name)
    return None if points is None or point in UNMODELLED_POINTS else point in points


def build(profile: Profile, binary: Build = VANILLA) -> Built:
    built = Built()
    registered = binary.plugins
    plugins = profile.plugins
    built.needed = {p.name for s in plugins.values() for p in s.enabled}
    head = prefix(profile)
    if "NodeResourcesFit" in built.needed:
        fit = next((cfg for cfg in profile.configs if cfg.name == "NodeResourcesFit"), None)
        errors = list(validate_fit(fit.args or {})) if fit is not None else []
        if errors:
            base = fit.pointer if fit is not None and fit.pointer is not None else profile.pointer
            text = aggregate([fe.render() for fe, _ in errors])
            built.error = InitError(c.FIT_ARGS, f'{head}initializing plugin "NodeResourcesFit": {text}', base,
                                    tuple(fe for fe, _ in errors),
                                    tuple((*base, "args", *rel) for _, rel in errors))
            return built
    built.error = _construct_out_of_tree(profile, binary, built.needed, head)
    if built.error is not None:
        return built
    for point, iface in EXTENSION_ORDER:
        names: list[str] = []
        for ref in plugins[point].enabled:
            error = _point_error(ref, point, iface, names, binary)
            if error:
                hint = binary.did_you_mean(ref.name) if _code(error) == c.UNKNOWN_PLUGIN else ""
                built.error = InitError(_code(error), head + error, ref.pointer or profile.pointer, hint=hint)
                return built
            names.append(ref.name)
        built.points[point] = names
    multi = plugins["multiPoint"].enabled
    if multi:
        for point, iface in EXTENSION_ORDER:
            pset = plugins[point]
            if "*" in pset.disabled_names():
                continue
            explicit = list(built.points[point])
            disabled = pset.disabled_names()
            override: list[str] = []
            expanded: list[str] = []
            for ref in multi:
                if ref.name not in registered:
                    built.error = InitError(c.UNKNOWN_PLUGIN, f'{head}{iface} "{ref.name}" does not exist',
                                            ref.pointer or profile.pointer, hint=binary.did_you_mean(ref.name))
                    return built
                if not _implements(ref.name, point, registered) or ref.name in disabled:
                    continue
                if ref.name in explicit:
                    override.append(ref.name)
                    continue
                if ref.name in expanded:
                    built.error = InitError(c.EXTENSION_MISMATCH,
                                            f'{head}plugin "{ref.name}" already registered as "{iface}"',
                                            ref.pointer or profile.pointer)
                    return built
                expanded.append(ref.name)
            first = [n for n in explicit if n in override]
            built.points[point] = first + expanded + [n for n in explicit if n not in override]
    name = profile.shown_name
    if len(built.points.get("queueSort", [])) != 1:
        built.error = InitError(c.PROFILE_PLUGINS, f"{head}only one queue sort plugin required for profile with "
                                f'scheduler name "{name}", but got {len(built.points.get("queueSort", []))}',
                                (*profile.pointer, "plugins"))
        return built
    if not built.points.get("bind"):
        built.error = InitError(c.PROFILE_PLUGINS, f"{head}at least one bind plugin is needed for profile with "
                                f'scheduler name "{name}"', (*profile.pointer, "plugins"))
        return built
    built.error = _score_weights(built, plugins["score"].enabled + multi, head, profile.pointer, registered)
    return built


def _construct_out_of_tree(profile: Profile, binary: Build, needed: set[str], head: str) -> InitError | None:
    """What the out-of-tree plugins' ``New()`` reject. The framework builds plugins in Go map order
    (random), so when several fail the scheduler names one of them; this reports the first by name."""
    for name in sorted(n for n in needed if binary.is_out_of_tree(n) and n not in binary.declared):
        cfg = next((x for x in profile.configs if x.name == name), None)
        if cfg is None or not cfg.typed or cfg.args is None:
            continue  # no args kind: nothing in the config can make its New() fail
        error = construct(name, cfg.args)
        if error is not None:
            pointer = cfg.pointer if cfg.pointer is not None else _enabled_at(profile, name)
            return InitError(c.OUT_OF_TREE_ARGS, f'{head}initializing plugin "{name}": {error}', pointer)
    return None


def _enabled_at(profile: Profile, name: str) -> Pointer:
    for point in profile.written_plugins.values():
        for ref in point.enabled:
            if ref.name == name and ref.pointer is not None:
                return (*ref.pointer, "name")
    return profile.pointer


def _code(error: str) -> str:
    return c.UNKNOWN_PLUGIN if "does not exist" in error else c.EXTENSION_MISMATCH


def _point_error(ref: PluginRef, point: str, iface: str, names: list[str], binary: Build) -> str:
    if ref.name not in binary.plugins:
        return f'{iface} "{ref.name}" does not exist'
    if _implements(ref.name, point, binary.plugins) is False:
        return f'plugin "{ref.name}" does not extend {iface} plugin'
    if ref.name in names:
        return f'plugin "{ref.name}" already registered as "{iface}"'
    return ""


def _score_weights(built: Built, refs: list[PluginRef], head: str, pointer: Pointer,
                   registered: Mapping[str, frozenset[str] | None]) -> InitError | None:
    total = 0
    cause: Pointer | None = None  # the first negative weight: it is what makes later plugins "overflow"
    for ref in refs:
        if not _implements(ref.name, "score", registered) or ref.name in built.score_weights:
            continue
        weight = ref.weight or 1
        built.score_weights[ref.name] = weight
        if weight < 0 and cause is None:
            cause = ref.pointer
        if weight * MAX_NODE_SCORE > wrap_int64(MAX_TOTAL_SCORE - total):
            return InitError(c.WEIGHT_OVERFLOW, f"{head}total score of Score plugins could overflow",
                             cause or ref.pointer or pointer)
        total = wrap_int64(total + weight * MAX_NODE_SCORE)
    return None


def score_plugins(built: Built) -> dict[str, int]:
    """Weight of every plugin that actually runs at Score (the effective model's table)."""
    return {n: built.score_weights.get(n, 1) for n in built.points.get("score", [])}
