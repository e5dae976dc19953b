"""Volcano's ``binpack`` plugin: argument parsing and the per-node float64 score.

See docs/scoring.md (section 2). Arguments arrive as the mapping a YAML loader produced from the
plugin's ``arguments:``; Volcano reads them with gopkg.in/yaml.v2 into
``map[string]interface{}`` and takes a value only when its dynamic type is Go ``int``,
so quoted numbers, floats, bools and lists are ignored silently. The score is float64,
evaluated in Volcano's order (cpu, memory, then the other resources) so that the result
matches bit for bit where Volcano's own order is fixed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from linter.goint import wrap_int64, yaml_int
from linter.model import VolcanoBinpackArgs

__all__ = [
    "BinpackTerm",
    "VolcanoNodeScore",
    "binpack_score_node",
    "go_trim_space",
    "node_order_binpack",
    "node_score_factor",
    "parse_binpack_arguments",
]

MAX_NODE_SCORE = 100
MIN_RESOURCE = 0.1  # api.minResource: smaller requested amounts are not "requested"

# unicode.IsSpace as strings.TrimSpace uses it (Python's str.strip also strips \x1c-\x1f).
_GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def go_trim_space(text: str) -> str:
    return text.strip(_GO_SPACE)


def _go_int(arguments: Mapping[str, object], key: str) -> int | None:
    """``Arguments.GetInt``: the value only if yaml.v2 decoded it to a Go ``int``."""
    return yaml_int(arguments.get(key))


def parse_binpack_arguments(arguments: Mapping[str, object]) -> VolcanoBinpackArgs:
    """The effective weights of one binpack plugin entry.

    ``binpack.weight`` is taken as is (negative kept; 0: this occurrence registers no node-order function);
    ``binpack.cpu``/``binpack.memory``/``binpack.resources.<name>`` below 0 become 1;
    ``binpack.resources`` must be a string, split on ',' and trimmed, empty items dropped;
    cpu and memory weights are written last so a listed ``cpu`` cannot override them.
    """
    weight = _go_int(arguments, "binpack.weight")
    weight = 1 if weight is None else weight
    cpu = _go_int(arguments, "binpack.cpu")
    cpu = 1 if cpu is None or cpu < 0 else cpu
    memory = _go_int(arguments, "binpack.memory")
    memory = 1 if memory is None or memory < 0 else memory
    listed = arguments.get("binpack.resources")
    extras: dict[str, int] = {}
    if isinstance(listed, str):
        for item in listed.split(","):
            name = go_trim_space(item)
            if not name:
                continue
            w = _go_int(arguments, "binpack.resources." + name)
            extras[name] = 1 if w is None or w < 0 else w
    resources: dict[str, int] = {"cpu": cpu, "memory": memory}
    for name, w in extras.items():
        if name not in resources:
            resources[name] = w
    return VolcanoBinpackArgs(weight=weight, resources=resources)


@dataclass(frozen=True)
class BinpackTerm:
    """One scored resource: ``((request + used) * weight) / capacity`` or 0."""

    name: str
    weight: int
    request: float
    used: float
    capacity: float
    term: float


@dataclass(frozen=True)
class VolcanoNodeScore:
    score: float
    weight_sum: int
    node_order_registered: bool
    rejected_by: str | None
    terms: tuple[BinpackTerm, ...]
    args: VolcanoBinpackArgs

    def effective_weights(self) -> dict[str, object]:
        return {"binpack.weight": self.args.weight, "resources": dict(self.args.resources)}


def node_score_factor(weight: int) -> float:
    """``float64(MaxNodeScore * int64(binpack.weight))``: the product is int64 and wraps around."""
    return float(wrap_int64(MAX_NODE_SCORE * weight))


def node_order_binpack(entries: Sequence[VolcanoBinpackArgs]) -> tuple[VolcanoBinpackArgs | None, int]:
    """The binpack node-order function Volcano calls, and how many times per node.

    Every entry with ``binpack.weight != 0`` registers its function under the plugin's name, so the last
    one wins (``Session.AddNodeOrderFn`` stores by name); ``Session.NodeOrderFn`` then calls the function
    of that name once for each entry whose ``enableNodeOrder`` is not false, whatever that entry's weight.
    None when no entry registers one.
    """
    registered: VolcanoBinpackArgs | None = None
    for entry in entries:
        if entry.weight != 0:
            registered = entry
    return registered, sum(1 for entry in entries if entry.enable_node_order)


def _scored_names(args: VolcanoBinpackArgs, task_request: Mapping[str, float]) -> list[str]:
    """``Resreq.ResourceNames()`` (cpu, memory, then scalars) that have a weight entry."""
    names = [n for n in ("cpu", "memory") if task_request.get(n, 0.0) >= MIN_RESOURCE]
    names += [n for n in task_request if n not in ("cpu", "memory") and task_request[n] >= MIN_RESOURCE]
    return [n for n in names if n in args.resources]


def binpack_score_node(
    args: VolcanoBinpackArgs,
    task_request: Mapping[str, float],
    node_used: Mapping[str, float],
    node_allocatable: Mapping[str, float],
) -> VolcanoNodeScore:
    """Volcano's ``BinPackingScore`` for one node, in float64.

    All three mappings are in Volcano units (see
    :func:`~linter.scoring.requests.volcano_request`). A node where request + used
    exceeds capacity for any scored resource scores 0 (``rejected_by`` names it).
    """
    names = _scored_names(args, task_request)
    weight_sum = wrap_int64(sum(args.resources[n] for n in names))  # Go's int sum
    registered = args.weight != 0
    if not registered:
        return VolcanoNodeScore(0.0, weight_sum, False, None, (), args)
    score = 0.0
    terms: list[BinpackTerm] = []
    for name in names:
        w = args.resources[name]
        request = task_request.get(name, 0.0)
        used = node_used.get(name, 0.0)
        capacity = node_allocatable.get(name, 0.0)
        if capacity == 0 or w == 0:
            terms.append(BinpackTerm(name, w, request, used, capacity, 0.0))
            continue
        used_finally = request + used
        if used_finally > capacity:
            return VolcanoNodeScore(0.0, weight_sum, True, name, tuple(terms), args)
        term = used_finally * float(w) / capacity
        terms.append(BinpackTerm(name, w, request, used, capacity, term))
        score += term
    if weight_sum > 0:
        score /= float(weight_sum)
    score *= node_score_factor(args.weight)
    return VolcanoNodeScore(score, weight_sum, True, None, tuple(terms), args)
