"""Which predicate functions Volcano's allocate action calls, from the conf's plugin entries (ed72c7c).

``Session.PredicateFn`` walks the tiers' entries in order and calls, for each entry whose ``enablePredicate``
is not false, the predicate function registered under the entry's name. A plugin registers it in
``OnSessionOpen`` whatever that switch says, and a later entry of the same name replaces an earlier one's
function, so the ``predicates`` function called is the last ``predicates`` entry's, with that entry's
arguments. The ``predicates`` plugin reads its switches with ``Arguments.GetBool``: a YAML boolean, or a
string ``strconv.ParseBool`` takes; anything else keeps the default (true).

Other plugins that register a predicate function at ed72c7c: deviceshare, nodegroup, numa-aware, tdm and
usage always; extender when ``extender.predicateVerb`` is a non-empty string; resource-strategy-fit when
its ``proportional`` argument enables the proportional policy. They are not modelled, only named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from linter.formats.volcano.sessionargs import bool_argument
from linter.model import VolcanoPredicateArgs

PREDICATES = "predicates"
ALWAYS_REGISTERING = frozenset({"deviceshare", "nodegroup", "numa-aware", "tdm", "usage"})


class Entry(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def arguments(self) -> dict[str, object]: ...

    def switch(self, key: str, default: bool = True) -> bool: ...


def get_bool(arguments: Mapping[str, object], key: str, default: bool) -> bool:
    """``Arguments.GetBool``: a bool as is, a string through ``strconv.ParseBool``, else the default."""
    taken = bool_argument(arguments[key]) if key in arguments else None
    return default if taken is None else taken


def predicate_args(arguments: Mapping[str, object]) -> VolcanoPredicateArgs:
    """The modelled filters' switches of one ``predicates`` entry (``predicates.New``)."""
    return VolcanoPredicateArgs(
        node_affinity=get_bool(arguments, "predicate.NodeAffinityEnable", True),
        node_ports=get_bool(arguments, "predicate.NodePortsEnable", True),
        taint_toleration=get_bool(arguments, "predicate.TaintTolerationEnable", True),
    )


def called_predicates(entries: Sequence[Entry]) -> VolcanoPredicateArgs | None:
    """The ``predicates`` function the allocate action calls, or None when no entry enables it."""
    named = [e for e in entries if e.name == PREDICATES]
    if not any(e.switch("enablePredicate") for e in named):
        return None
    return predicate_args(named[-1].arguments)


def _registers(entry: Entry) -> bool:
    if entry.name in ALWAYS_REGISTERING:
        return True
    if entry.name == "extender":
        verb = entry.arguments.get("extender.predicateVerb")
        return isinstance(verb, str) and verb != ""
    if entry.name == "resource-strategy-fit":
        policy = entry.arguments.get("proportional")
        # mapstructure matches the field name ``Enable`` case-insensitively and takes only a bool
        return isinstance(policy, Mapping) and any(
            str(k).lower() == "enable" and v is True for k, v in policy.items())
    return False


def other_predicates(entries: Sequence[Entry]) -> tuple[str, ...]:
    """Names of the other plugins whose predicate function is called, once each, in tier order."""
    names: list[str] = []
    for entry in entries:
        if entry.switch("enablePredicate") and _registers(entry) and entry.name not in names:
            names.append(entry.name)
    return tuple(names)
