"""Which nodes the pod may go to, with kube-scheduler 1.36's own reason texts.

NodeAffinity's PreFilter runs first: a pod pinned to node names by ``matchFields
metadata.name In`` never reaches the filters on other nodes. Then the modelled filters run
in the default profile's order, stopping at the first that rejects a node (as the
framework does): NodeUnschedulable, NodeName, TaintToleration (NoSchedule/NoExecute),
NodeAffinity (``nodeSelector`` + required node affinity terms), NodePorts (host ports,
:mod:`linter.scoring.hostports`), NodeResourcesFit (pods count, cpu, memory, ephemeral-storage,
scalar resources; honours ``ignoredResources`` / ``ignoredResourceGroups``).

NOT modelled here: pod (anti-)affinity and topology spread (explain runs :mod:`linter.scoring.podaffinity`
and :mod:`linter.scoring.spread` after these), volume filters, DRA,
scheduler-enforced ``addedAffinity``, toleration operators Gt/Lt (alpha gate, off).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from linter.goint import in_int64, wrap_int64
from linter.k8snames import label_value_errors, qualified_name_errors
from linter.scoring.hostports import REASON_NODE_PORTS, HostPort, host_ports, ports_conflict
from linter.scoring.requests import is_extended_resource, is_scalar_resource

__all__ = [
    "DEFAULT_FILTERS",
    "NODE_AFFINITY_PREFILTER",
    "REASON_NODE_AFFINITY",
    "REASON_NODE_NAME",
    "REASON_NODE_PORTS",
    "REASON_TAINTS",
    "REASON_UNSCHEDULABLE",
    "Feasibility",
    "check_node",
    "fit_filter",
    "node_affinity",
    "node_affinity_prefilter",
    "node_name",
    "node_unschedulable",
    "prefilter_rejection",
    "profile_filters",
    "taint_toleration",
    "term_matches",
    "tolerates",
]

REASON_UNSCHEDULABLE = "node(s) were unschedulable"
REASON_NODE_NAME = "node(s) didn't match the requested node name"
REASON_TAINTS = "node(s) had untolerated taint(s)"
REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector"
REASON_TOO_MANY_PODS = "Too many pods"
REASON_PREFILTER_NODE_AFFINITY = "node(s) didn't satisfy plugin(s) [NodeAffinity]"
REASON_AFFINITY_CONFLICT = "pod affinity terms conflict"

# NodeAffinity's PreFilter in a list of filters to run. kube-scheduler runs it from the profile's preFilter
# plugins, whether or not NodeAffinity's Filter runs (a profile may disable one and keep the other).
NODE_AFFINITY_PREFILTER = "NodeAffinity (PreFilter)"
DEFAULT_FILTERS = (NODE_AFFINITY_PREFILTER, "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                   "NodePorts", "NodeResourcesFit")


def profile_filters(filter_plugins: Sequence[str] | None, fit_filter_enabled: bool,
                    pre_filter_plugins: Sequence[str] | None) -> tuple[str, ...]:
    """The modelled filters a profile runs, in :data:`DEFAULT_FILTERS`' order: those among its Filter
    plugins and NodeAffinity's PreFilter when among its PreFilter plugins (None: the default set of each)."""
    def runs(name: str) -> bool:
        if name == NODE_AFFINITY_PREFILTER:
            return pre_filter_plugins is None or "NodeAffinity" in pre_filter_plugins
        if name == "NodeResourcesFit" and not fit_filter_enabled:
            return False
        return filter_plugins is None or name in filter_plugins

    return tuple(name for name in DEFAULT_FILTERS if runs(name))

Obj = Mapping[str, Any]


def _get(obj: object, *path: str) -> Any:
    for key in path:
        if not isinstance(obj, Mapping):
            return None
        obj = obj.get(key)
    return obj


def _values(req: Mapping[str, Any]) -> list[str] | None:
    """A requirement's ``values`` as strings; None when it is not a list (an invalid requirement)."""
    raw = req.get("values")
    if raw is None:
        return []
    return [str(v) for v in raw] if isinstance(raw, list) else None


def tolerates(toleration: object, key: str, value: str, effect: str) -> bool:
    """``Toleration.ToleratesTaint``: empty effect/key match all; operator "" means Equal."""
    if not isinstance(toleration, Mapping):
        return False
    t_effect = toleration.get("effect") or ""
    if t_effect and t_effect != effect:
        return False
    t_key = toleration.get("key") or ""
    if t_key and t_key != key:
        return False
    operator = toleration.get("operator") or ""
    if operator in ("", "Equal"):
        return (toleration.get("value") or "") == value
    return operator == "Exists"


def _tolerations(pod: Obj) -> list[Any]:
    raw = _get(pod, "spec", "tolerations")
    return raw if isinstance(raw, list) else []


def node_unschedulable(pod: Obj, node: Obj) -> str | None:
    if not _get(node, "spec", "unschedulable"):
        return None
    if any(tolerates(t, "node.kubernetes.io/unschedulable", "", "NoSchedule") for t in _tolerations(pod)):
        return None
    return REASON_UNSCHEDULABLE


def node_name(pod: Obj, node: Obj) -> str | None:
    wanted = _get(pod, "spec", "nodeName")
    return None if not wanted or wanted == _get(node, "metadata", "name") else REASON_NODE_NAME


def taint_toleration(pod: Obj, node: Obj) -> str | None:
    taints = _get(node, "spec", "taints")
    for taint in taints if isinstance(taints, list) else []:
        if not isinstance(taint, Mapping) or taint.get("effect") not in ("NoSchedule", "NoExecute"):
            continue
        key, value, effect = str(taint.get("key") or ""), str(taint.get("value") or ""), str(taint["effect"])
        if not any(tolerates(t, key, value, effect) for t in _tolerations(pod)):
            return REASON_TAINTS
    return None


_GO_INT = re.compile(r"[+-]?[0-9]+")


def _parse_int64(text: object) -> int | None:
    if not isinstance(text, str) or not _GO_INT.fullmatch(text):
        return None
    value = int(text)
    return value if in_int64(value) else None


def _requirement_matches(req: object, values_of: Mapping[str, str]) -> bool | None:
    """One NodeSelectorRequirement against a label (or field) set; None = invalid requirement."""
    if not isinstance(req, Mapping):
        return None
    key, op, values = req.get("key"), req.get("operator"), _values(req)
    if not isinstance(key, str) or values is None:
        return None
    present = key in values_of
    if op in ("In", "NotIn"):
        if not values:
            return None
        hit = present and values_of[key] in values
        return hit if op == "In" else not hit
    if op in ("Exists", "DoesNotExist"):
        if values:
            return None
        return present if op == "Exists" else not present
    if op in ("Gt", "Lt"):
        bound = _parse_int64(values[0]) if len(values) == 1 else None
        if bound is None:
            return None
        actual = _parse_int64(values_of.get(key)) if present else None
        if actual is None:
            return False
        return actual > bound if op == "Gt" else actual < bound
    return None


@lru_cache(maxsize=1024)
def _is_label_key(key: str) -> bool:
    return not qualified_name_errors(key)


@lru_cache(maxsize=1024)
def _is_label_value(value: str) -> bool:
    return not label_value_errors(value)


def _label_requirement_parses(req: object) -> bool:
    """``labels.NewRequirement``'s key and value checks for a ``matchExpressions`` entry: the key must be a
    label key and every value a label value, whatever the operator. The API server checks neither the
    values nor, for Gt/Lt, their form, so a stored pod can hold ``+5``, ``-3`` or ``a b``: the scheduler
    then fails to parse the term, which matches no node (``matchFields`` values are not checked)."""
    if not isinstance(req, Mapping):
        return False
    key, values = req.get("key"), _values(req)
    return isinstance(key, str) and values is not None and _is_label_key(key) and all(map(_is_label_value, values))


def term_matches(term: object, labels: Mapping[str, str], fields: Mapping[str, str]) -> bool:
    """A node selector term: all expressions and fields match; an empty or invalid term matches nothing."""
    if not isinstance(term, Mapping):
        return False
    exprs = term.get("matchExpressions") or []
    field_exprs = term.get("matchFields") or []
    if not isinstance(exprs, list) or not isinstance(field_exprs, list) or not (exprs or field_exprs):
        return False
    for req in exprs:
        if not _label_requirement_parses(req) or _requirement_matches(req, labels) is not True:
            return False
    for req in field_exprs:
        if not isinstance(req, Mapping) or req.get("operator") not in ("In", "NotIn"):
            return False
        values = _values(req)
        if values is None or len(values) != 1:
            return False
        if _requirement_matches(req, fields) is not True:
            return False
    return True


def node_affinity(pod: Obj, node: Obj) -> str | None:
    labels_raw = _get(node, "metadata", "labels")
    labels = {str(k): str(v) for k, v in labels_raw.items()} if isinstance(labels_raw, Mapping) else {}
    selector = _get(pod, "spec", "nodeSelector")
    if isinstance(selector, Mapping):
        for k, v in selector.items():
            if str(k) not in labels or labels[str(k)] != str(v if v is not None else ""):
                return REASON_NODE_AFFINITY
    required = _get(pod, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    if isinstance(required, Mapping):
        terms = required.get("nodeSelectorTerms") or []
        fields = {"metadata.name": str(_get(node, "metadata", "name") or "")}
        if not any(term_matches(t, labels, fields) for t in (terms if isinstance(terms, list) else [])):
            return REASON_NODE_AFFINITY
    return None


def node_affinity_prefilter(pod: Obj) -> frozenset[str] | None:
    """NodeAffinity's PreFilter: the node names the required terms pin the pod to, or None (all nodes).

    Only when *every* term has ``matchFields`` ``metadata.name In [...]`` (ANDed within a
    term, ORed across terms). An empty set means the terms conflict: no node can match.
    Nodes outside the set are rejected before any filter runs, with their own reason.
    """
    terms = _get(pod, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                 "nodeSelectorTerms")
    if not isinstance(terms, list) or not terms:
        return None
    names: set[str] = set()
    for term in terms:
        fields = term.get("matchFields") if isinstance(term, Mapping) else None
        term_names: set[str] | None = None
        for req in fields if isinstance(fields, list) else []:
            if isinstance(req, Mapping) and req.get("key") == "metadata.name" and req.get("operator") == "In":
                values = set(_values(req) or [])
                term_names = values if term_names is None else term_names & values
        if term_names is None:
            return None  # this term does not pin names: every node stays a candidate
        names |= term_names
    return frozenset(names)


def prefilter_rejection(pod: Obj, filters: Sequence[str]) -> str | None:
    """The text of a PreFilter that rejects the pod for every node (Go's ``Diagnosis.PreFilterMsg``).

    Only NodeAffinity's is modelled: pinned node names that intersect to nothing, rejected
    UnschedulableAndUnresolvable, which ends the PreFilter run. None when no PreFilter rejects.
    """
    if NODE_AFFINITY_PREFILTER in filters and node_affinity_prefilter(pod) == frozenset():
        return REASON_AFFINITY_CONFLICT
    return None


def fit_filter(
    pod_request: Mapping[str, int],
    pod_count: int,
    node_requested: Mapping[str, int],
    node_allocatable: Mapping[str, int],
    ignored_resources: Sequence[str] = (),
    ignored_resource_groups: Sequence[str] = (),
) -> list[str]:
    """NodeResourcesFit's filter (``fitsRequest``) on actual requests; reasons in Go's order.

    Scalar resources are checked in name order (Go iterates a map, so its order varies).
    The free amount ``allocatable - requested`` is Go's int64 difference: it wraps when the
    node's requests sum past int64.
    """
    reasons: list[str] = []
    if pod_count + 1 > node_allocatable.get("pods", 0):
        reasons.append(REASON_TOO_MANY_PODS)
    scalars = {n: v for n, v in pod_request.items() if is_scalar_resource(n)}
    if all(pod_request.get(n, 0) == 0 for n in ("cpu", "memory", "ephemeral-storage")) and not scalars:
        return reasons
    for name in ("cpu", "memory", "ephemeral-storage"):
        want = pod_request.get(name, 0)
        if want > 0 and want > wrap_int64(node_allocatable.get(name, 0) - node_requested.get(name, 0)):
            reasons.append(f"Insufficient {name}")
    for name in sorted(scalars):
        want = scalars[name]
        if want == 0:
            continue
        if is_extended_resource(name) and (
            name in ignored_resources or name.split("/")[0] in ignored_resource_groups
        ):
            continue
        if want > wrap_int64(node_allocatable.get(name, 0) - node_requested.get(name, 0)):
            reasons.append(f"Insufficient {name}")
    return reasons


@dataclass(frozen=True)
class Feasibility:
    feasible: bool
    plugin: str | None  # the filter plugin that rejected the node
    reasons: tuple[str, ...]


FEASIBLE = Feasibility(True, None, ())


def check_node(
    pod: Obj,
    node: Obj,
    *,
    pod_request: Mapping[str, int],
    pod_count: int,
    node_requested: Mapping[str, int],
    node_allocatable: Mapping[str, int],
    ignored_resources: Sequence[str] = (),
    ignored_resource_groups: Sequence[str] = (),
    filters: Sequence[str] = DEFAULT_FILTERS,
    used_ports: Collection[HostPort] = frozenset(),
    pod_ports: Sequence[HostPort] | None = None,
) -> Feasibility:
    """Run the modelled filters in order; the first rejecting plugin's reasons are returned.

    ``pod_request`` is :func:`~linter.scoring.requests.actual_request` of the pod and
    ``node_requested`` the sum of the bound pods' actual requests; ``used_ports`` the node's
    ``UsedPorts`` and ``pod_ports`` the pod's :func:`~linter.scoring.hostports.host_ports` (None:
    read from ``pod``).
    """
    if NODE_AFFINITY_PREFILTER in filters:
        pinned = node_affinity_prefilter(pod)
        if pinned is not None and not pinned:
            return Feasibility(False, "NodeAffinity", (REASON_AFFINITY_CONFLICT,))
        if pinned is not None and _get(node, "metadata", "name") not in pinned:
            return Feasibility(False, "NodeAffinity", (REASON_PREFILTER_NODE_AFFINITY,))
    simple = {
        "NodeUnschedulable": node_unschedulable,
        "NodeName": node_name,
        "TaintToleration": taint_toleration,
        "NodeAffinity": node_affinity,
    }
    for plugin in filters:
        if plugin in simple:
            reason = simple[plugin](pod, node)
            if reason is not None:
                return Feasibility(False, plugin, (reason,))
        elif plugin == "NodePorts":
            wanted = host_ports(pod) if pod_ports is None else pod_ports
            if ports_conflict(wanted, used_ports):
                return Feasibility(False, plugin, (REASON_NODE_PORTS,))
        elif plugin == "NodeResourcesFit":
            reasons = fit_filter(
                pod_request, pod_count, node_requested, node_allocatable, ignored_resources, ignored_resource_groups
            )
            if reasons:
                return Feasibility(False, plugin, tuple(reasons))
    return FEASIBLE
