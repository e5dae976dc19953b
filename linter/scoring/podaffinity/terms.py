"""A pod's inter-pod affinity terms as kube-scheduler 1.36's framework.PodInfo holds them.

``PodInfo.Update`` parses four lists from ``spec.affinity``: required podAffinity and podAntiAffinity
terms (``requiredDuringSchedulingIgnoredDuringExecution``) and the preferred (weighted) ones. Each term
becomes an :class:`AffinityTerm`:

* ``namespaces``: the term's ``namespaces``, or the pod's own namespace when that list is empty and
  ``namespaceSelector`` is unset (``getNamespacesFromPodAffinityTerm``);
* ``selector`` and ``namespace_selector`` converted by ``LabelSelectorAsSelector`` (unset: nothing,
  ``{}``: everything);
* ``topology_key`` as written.

A term that does not convert empties its whole list and adds ``"<list>: <error>"`` to the pod's parse
errors (the incoming pod's PreFilter then fails; a bound pod is kept with that list empty, as
``NodeInfo.AddPod`` ignores the error). ``matchLabelKeys``/``mismatchLabelKeys`` are not read: the API
server (MatchLabelKeysInPodAffinity, GA and locked on since 1.33) folds them into ``labelSelector`` when
the pod is created, see :func:`fold_label_keys`, and the scheduler reads only ``labelSelector``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from linter.scoring.labelselector import NOTHING, LabelSelector, SelectorError, selector_from

__all__ = ["AffinityTerm", "PodTerms", "WeightedTerm", "fold_label_keys", "pod_terms"]


@dataclass(frozen=True)
class AffinityTerm:
    """framework.AffinityTerm."""

    namespaces: frozenset[str]
    selector: LabelSelector
    namespace_selector: LabelSelector
    topology_key: str

    def matches(self, namespace: str, labels: Mapping[str, str], namespace_labels: Mapping[str, str]) -> bool:
        """``AffinityTerm.Matches``: namespace listed or its labels selected, then the pod's labels selected."""
        if namespace in self.namespaces or self.namespace_selector.matches(namespace_labels):
            return self.selector.matches(labels)
        return False

    @property
    def selects_namespaces_by_label(self) -> bool:
        """The namespace selector neither selects nothing nor everything: Namespace labels decide."""
        return not self.namespace_selector.nothing and not self.namespace_selector.empty

    def merged(self, namespace_labels: Mapping[str, Mapping[str, str]]) -> AffinityTerm:
        """``mergeAffinityTermNamespacesIfNotEmpty`` for the incoming pod's terms: the namespaces the
        selector picks (from ``namespace_labels``, name to labels) join ``namespaces`` and the selector
        becomes Nothing; an Everything selector is kept."""
        if self.namespace_selector.empty:
            return self
        picked = {name for name, labels in namespace_labels.items() if self.namespace_selector.matches(labels)}
        return replace(self, namespaces=self.namespaces | picked, namespace_selector=NOTHING)


@dataclass(frozen=True)
class WeightedTerm:
    term: AffinityTerm
    weight: int


@dataclass(frozen=True)
class PodTerms:
    required_affinity: tuple[AffinityTerm, ...] = ()
    required_anti_affinity: tuple[AffinityTerm, ...] = ()
    preferred_affinity: tuple[WeightedTerm, ...] = ()
    preferred_anti_affinity: tuple[WeightedTerm, ...] = ()
    # "requiredAffinityTerms: <err>", ... in PodInfo.Update's order
    errors: tuple[str, ...] = ()
    # spec lists PreScore tests by length (parsed or not)
    has_preferred: bool = False

    @property
    def any(self) -> bool:
        return bool(self.required_affinity or self.required_anti_affinity
                    or self.preferred_affinity or self.preferred_anti_affinity)


def _mapping(obj: object, key: str) -> Mapping[str, Any] | None:
    value = obj.get(key) if isinstance(obj, Mapping) else None
    return value if isinstance(value, Mapping) else None


def _list(obj: Mapping[str, Any] | None, key: str) -> list[Any]:
    value = obj.get(key) if obj is not None else None
    return value if isinstance(value, list) else []


def _term(namespace: str, raw: object) -> AffinityTerm:
    term = raw if isinstance(raw, Mapping) else {}
    selector = selector_from(term.get("labelSelector"))
    listed = term.get("namespaces")
    names = listed if isinstance(listed, list) else []
    ns_raw = term.get("namespaceSelector")
    namespaces = frozenset({namespace}) if not names and ns_raw is None else frozenset(str(n) for n in names)
    topology_key = term.get("topologyKey")
    return AffinityTerm(namespaces=namespaces, selector=selector, namespace_selector=selector_from(ns_raw),
                        topology_key=topology_key if isinstance(topology_key, str) else "")


def _weight(raw: object) -> int:
    weight = raw.get("weight") if isinstance(raw, Mapping) else None
    return weight if isinstance(weight, int) and not isinstance(weight, bool) else 0


def pod_terms(namespace: str, affinity: object) -> PodTerms:
    """The four term lists of a pod in ``namespace`` with this ``spec.affinity``."""
    pod_aff = _mapping(affinity, "podAffinity")
    anti = _mapping(affinity, "podAntiAffinity")
    errors: list[str] = []
    required: list[tuple[AffinityTerm, ...]] = []
    for name, block in (("requiredAffinityTerms", pod_aff), ("requiredAntiAffinityTerms", anti)):
        try:
            raws = _list(block, "requiredDuringSchedulingIgnoredDuringExecution")
            required.append(tuple(_term(namespace, t) for t in raws))
        except SelectorError as err:
            errors.append(f"{name}: {err}")
            required.append(())
    preferred: list[tuple[WeightedTerm, ...]] = []
    raw_preferred = [_list(pod_aff, "preferredDuringSchedulingIgnoredDuringExecution"),
                     _list(anti, "preferredDuringSchedulingIgnoredDuringExecution")]
    for name, raws in zip(("preferredAffinityTerms", "preferredAntiAffinityTerms"), raw_preferred, strict=True):
        try:
            preferred.append(tuple(WeightedTerm(_term(namespace, _mapping(w, "podAffinityTerm") or {}), _weight(w))
                                   for w in raws))
        except SelectorError as err:
            errors.append(f"{name}: {err}")
            preferred.append(())
    return PodTerms(required_affinity=required[0], required_anti_affinity=required[1],
                    preferred_affinity=preferred[0], preferred_anti_affinity=preferred[1],
                    errors=tuple(errors), has_preferred=bool(raw_preferred[0] or raw_preferred[1]))


def _fold_term(term: object, labels: Mapping[str, str]) -> object:
    if not isinstance(term, Mapping) or not isinstance(term.get("labelSelector"), Mapping):
        return term  # an unset selector selects nothing whatever is merged (applyMatchLabelKeys... skips it)
    keys_in = [k for k in _list(term, "matchLabelKeys") if isinstance(k, str) and k in labels]
    keys_out = [k for k in _list(term, "mismatchLabelKeys") if isinstance(k, str) and k in labels]
    if not keys_in and not keys_out:
        return term
    selector = dict(term["labelSelector"])
    exprs = list(_list(selector, "matchExpressions"))
    exprs += [{"key": k, "operator": "In", "values": [labels[k]]} for k in keys_in]
    exprs += [{"key": k, "operator": "NotIn", "values": [labels[k]]} for k in keys_out]
    selector["matchExpressions"] = exprs
    return {**term, "labelSelector": selector}


def fold_label_keys(affinity: object, labels: Mapping[str, str]) -> object:
    """``spec.affinity`` as the API server stores it at creation (``mutatePodAffinity``): each term's
    ``matchLabelKeys`` key present in the pod's labels adds ``key In (value)`` to its ``labelSelector``,
    each ``mismatchLabelKeys`` key ``key NotIn (value)``. For a pod read from a manifest, not yet created."""
    if not isinstance(affinity, Mapping):
        return affinity
    out = dict(affinity)
    for kind in ("podAffinity", "podAntiAffinity"):
        block = _mapping(affinity, kind)
        if block is None:
            continue
        new_block = dict(block)
        required = "requiredDuringSchedulingIgnoredDuringExecution"
        preferred = "preferredDuringSchedulingIgnoredDuringExecution"
        if isinstance(block.get(required), list):
            new_block[required] = [_fold_term(t, labels) for t in block[required]]
        if isinstance(block.get(preferred), list):
            new_block[preferred] = [
                {**w, "podAffinityTerm": _fold_term(w.get("podAffinityTerm"), labels)} if isinstance(w, Mapping) else w
                for w in block[preferred]
            ]
        out[kind] = new_block
    return out
