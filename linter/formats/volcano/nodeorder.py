"""The Volcano plugins besides binpack that can add to a node's score, which are not modelled.

At ed72c7c these plugins register a node-order function (``AddNodeOrderFn`` or ``AddBatchNodeOrderFn``):
nodeorder, predicates (its VolumeBinding and DynamicResources scores), deviceshare, extender (with a
prioritize verb), network-topology-aware, nodegroup, numa-aware, resource-strategy-fit, task-topology, tdm
and usage. ``Session.NodeOrderFn``/``BatchNodeOrderFn`` add their float64 results to binpack's for every entry
whose ``enableNodeOrder`` is not false. Unknown names register nothing (Volcano logs "Failed to get plugin").
"""

from __future__ import annotations

from collections.abc import Mapping

from linter.goint import yaml_int
from linter.model import VolcanoNodeOrderPlugin

NODE_ORDER_PLUGINS = frozenset({
    "nodeorder", "predicates", "deviceshare", "extender", "network-topology-aware", "nodegroup", "numa-aware",
    "resource-strategy-fit", "task-topology", "tdm", "usage",
})

NODEORDER = "nodeorder"

# nodeorder's calculateWeight: key -> default, in the order it reads them.
NODEORDER_DEFAULTS: Mapping[str, int] = {
    "nodeaffinity.weight": 2, "podaffinity.weight": 2, "leastrequested.weight": 1, "mostrequested.weight": 0,
    "balancedresource.weight": 1, "tainttoleration.weight": 3, "imagelocality.weight": 1,
    "podtopologyspread.weight": 2,
}


def nodeorder_weights(arguments: Mapping[str, object]) -> dict[str, int]:
    """nodeorder's effective weights: ``Arguments.GetInt`` takes Go ints only, so ``"0"`` keeps the default."""
    out: dict[str, int] = {}
    for key, default in NODEORDER_DEFAULTS.items():
        value = yaml_int(arguments.get(key))
        out[key.removesuffix(".weight")] = default if value is None else value
    return out


def node_order_plugin(name: str, arguments: Mapping[str, object]) -> VolcanoNodeOrderPlugin | None:
    """The not-modelled node-order plugin this entry is, or None when it adds no node score."""
    if name not in NODE_ORDER_PLUGINS:
        return None
    return VolcanoNodeOrderPlugin(name, nodeorder_weights(arguments) if name == "nodeorder" else None)
