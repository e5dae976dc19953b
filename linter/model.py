"""The normalized scheduler-configuration model shared by the linter, the scorer and the webhook.

Values here are *effective* values: what the scheduler uses after its own defaulting
(kube-scheduler v1 defaulting, Volcano argument parsing). Builders that apply that
defaulting to user-written args live next to the types so that every front end
defaults the same way.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

LEAST_ALLOCATED = "LeastAllocated"
MOST_ALLOCATED = "MostAllocated"
REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio"
STRATEGIES = (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO)

DEFAULT_SCHEDULER_NAME = "default-scheduler"


@dataclass(frozen=True)
class ResourceWeight:
    name: str
    weight: int


@dataclass(frozen=True)
class ShapePoint:
    utilization: int
    score: int


DEFAULT_RESOURCES: tuple[ResourceWeight, ...] = (ResourceWeight("cpu", 1), ResourceWeight("memory", 1))


def _defaulted_resources(raw: object) -> tuple[ResourceWeight, ...]:
    """``resources`` absent or empty -> cpu:1, memory:1; each weight 0/absent -> 1."""
    if not isinstance(raw, list) or not raw:
        return DEFAULT_RESOURCES
    out: list[ResourceWeight] = []
    for item in raw:
        if not isinstance(item, Mapping):
            continue
        name = item.get("name", "")
        weight = item.get("weight", 0)
        if not isinstance(weight, int) or isinstance(weight, bool):
            weight = 0
        out.append(ResourceWeight(str(name) if name is not None else "", weight if weight != 0 else 1))
    return tuple(out)


@dataclass(frozen=True)
class PreemptionArgs:
    """Defaulted ``DefaultPreemptionArgs`` (reference/preemption.md §5): 10 % and 100."""

    min_candidate_nodes_percentage: int = 10
    min_candidate_nodes_absolute: int = 100

    @classmethod
    def from_args(cls, args: Mapping[str, object] | None) -> PreemptionArgs:
        """v1 defaulting: a missing (or null) field takes its default; 0 stays 0."""
        args = args or {}
        pct, absolute = args.get("minCandidateNodesPercentage"), args.get("minCandidateNodesAbsolute")
        return cls(10 if pct is None else _as_int(pct), 100 if absolute is None else _as_int(absolute))


@dataclass(frozen=True)
class FitArgs:
    """Defaulted ``NodeResourcesFitArgs`` as far as scoring and filtering need them."""

    strategy: str = LEAST_ALLOCATED
    resources: tuple[ResourceWeight, ...] = DEFAULT_RESOURCES
    shape: tuple[ShapePoint, ...] | None = None
    ignored_resources: tuple[str, ...] = ()
    ignored_resource_groups: tuple[str, ...] = ()

    @classmethod
    def from_args(cls, args: Mapping[str, object] | None) -> FitArgs:
        """Apply v1 defaulting to args as a user writes them (``{}`` or None = all defaults).

        A present ``scoringStrategy`` keeps its ``type`` as given (possibly empty: the
        scheduler rejects that at plugin construction, which the linter reports).
        """
        args = args or {}
        ignored = tuple(str(x) for x in _as_list(args.get("ignoredResources")))
        groups = tuple(str(x) for x in _as_list(args.get("ignoredResourceGroups")))
        strategy = args.get("scoringStrategy")
        if not isinstance(strategy, Mapping):
            return cls(ignored_resources=ignored, ignored_resource_groups=groups)
        kind = strategy.get("type")
        shape: tuple[ShapePoint, ...] | None = None
        rtcr = strategy.get("requestedToCapacityRatio")
        if isinstance(rtcr, Mapping):
            shape = tuple(
                ShapePoint(_as_int(p.get("utilization")), _as_int(p.get("score")))
                for p in _as_list(rtcr.get("shape"))
                if isinstance(p, Mapping)
            )
        return cls(
            strategy=str(kind) if isinstance(kind, str) else "",
            resources=_defaulted_resources(strategy.get("resources")),
            shape=shape,
            ignored_resources=ignored,
            ignored_resource_groups=groups,
        )

    def as_args(self) -> dict[str, object]:
        """The defaulted args in the scheduler's own v1 spelling (as ``--write-config-to`` prints them)."""
        strategy: dict[str, object] = {
            "type": self.strategy,
            "resources": [{"name": r.name, "weight": r.weight} for r in self.resources],
        }
        if self.shape is not None:
            strategy["requestedToCapacityRatio"] = {
                "shape": [{"utilization": p.utilization, "score": p.score} for p in self.shape]
            }
        out: dict[str, object] = {"scoringStrategy": strategy}
        if self.ignored_resources:
            out["ignoredResources"] = list(self.ignored_resources)
        if self.ignored_resource_groups:
            out["ignoredResourceGroups"] = list(self.ignored_resource_groups)
        return out


@dataclass(frozen=True)
class BalancedArgs:
    """Defaulted ``NodeResourcesBalancedAllocationArgs``."""

    resources: tuple[ResourceWeight, ...] = DEFAULT_RESOURCES

    @classmethod
    def from_args(cls, args: Mapping[str, object] | None) -> BalancedArgs:
        args = args or {}
        return cls(resources=_defaulted_resources(args.get("resources")))

    def as_args(self) -> dict[str, object]:
        return {"resources": [{"name": r.name, "weight": r.weight} for r in self.resources]}


@dataclass(frozen=True)
class Profile:
    """One kube-scheduler profile after defaulting.

    ``fit``/``balanced`` are None when the plugin is not enabled as a score plugin in
    this profile. ``score_plugin_weights`` holds the weight the framework applies to
    every enabled score plugin (0 already turned into 1). ``unscored_fit``/``unscored_balanced``
    hold the args of a plugin the framework builds for another extension point only (Fit's
    Filter, BalancedAllocation's PreScore): it does not score, but ``--write-config-to`` prints
    its args and Fit's Filter honours their ``ignoredResources``.
    """

    scheduler_name: str
    fit: FitArgs | None = field(default_factory=FitArgs)
    balanced: BalancedArgs | None = field(default_factory=BalancedArgs)
    score_plugin_weights: Mapping[str, int] = field(default_factory=dict)
    fit_filter_enabled: bool = True
    # the profile's Filter plugins in order; None: kube-scheduler's default set (a model built without a
    # config). A config that disables every filter gives (), and then no filter runs.
    filter_plugins: tuple[str, ...] | None = None
    pre_filter_plugins: tuple[str, ...] | None = None  # its PreFilter plugins; None as above
    # PostFilter plugins in their order, and DefaultPreemption's args (issue 10).
    post_filter_plugins: tuple[str, ...] = ("DynamicResources", "DefaultPreemption")
    preemption: PreemptionArgs = field(default_factory=PreemptionArgs)
    # Score plugins of a custom build (scheduler-plugins, the user's own): their scores are not
    # modelled, so totals leave them out and say so.
    out_of_tree_score_plugins: tuple[str, ...] = ()
    unscored_fit: FitArgs | None = None
    unscored_balanced: BalancedArgs | None = None
    # the profile's percentageOfNodesToScore when written (0 included), else the global one; 0 = adaptive
    # (how many feasible nodes the scheduler looks for: linter.scoring.sampling)
    percentage_of_nodes_to_score: int = 0
    # the config has an extender with a filterVerb or a prioritizeVerb (extenders apply to every profile)
    extenders_filter_or_score: bool = False
    # NodeAffinityArgs.addedAffinity's preferred terms as written: NodeAffinity's Score adds them for every pod
    added_preferred_terms: tuple[Mapping[str, object], ...] = ()
    # PodTopologySpreadArgs: the whenUnsatisfiable of each default constraint a pod without constraints of
    # its own gets (defaultingType System: zone and hostname, both ScheduleAnyway), and whether that is System
    spread_default_actions: tuple[str, ...] = ("ScheduleAnyway", "ScheduleAnyway")
    spread_system_defaulted: bool = True
    # defaultingType List: its defaultConstraints as written (System: the plugin's own, linter.scoring.spread)
    spread_listed_constraints: tuple[Mapping[str, object], ...] = ()
    # InterPodAffinityArgs: what bound pods' own terms add to this pod's InterPodAffinity score
    interpod_hard_affinity_weight: int = 1
    interpod_ignore_existing_preferred: bool = False

    @property
    def has_score_plugins(self) -> bool:
        """Whether the framework runs any score plugin (``HasScorePlugins``)."""
        return bool(self.score_plugin_weights) or self.fit is not None or self.balanced is not None

    @property
    def looks_for_one_node(self) -> bool:
        """kube-scheduler stops at the first feasible node: nothing scores and no extender filters or scores."""
        return not self.has_score_plugins and not self.extenders_filter_or_score

    @property
    def built_fit(self) -> FitArgs | None:
        """NodeResourcesFit's args wherever the framework builds it (None: not built at all)."""
        return self.fit if self.fit is not None else self.unscored_fit

    @property
    def built_balanced(self) -> BalancedArgs | None:
        """NodeResourcesBalancedAllocation's args wherever the framework builds it (None: not built at all)."""
        return self.balanced if self.balanced is not None else self.unscored_balanced

    @property
    def unmodelled_scores(self) -> dict[str, int]:
        """Out-of-tree score plugin -> its weight (what explain and the webhook name as left out)."""
        return {n: self.score_plugin_weights.get(n, 1) for n in self.out_of_tree_score_plugins}

    @property
    def fit_weight(self) -> int:
        return self.score_plugin_weights.get("NodeResourcesFit", 1)

    @property
    def balanced_weight(self) -> int:
        return self.score_plugin_weights.get("NodeResourcesBalancedAllocation", 1)

    @property
    def taint_toleration_weight(self) -> int:
        """TaintToleration's score weight; 0 when it does not score in this profile."""
        return self.score_plugin_weights.get("TaintToleration", 0)

    @property
    def node_affinity_weight(self) -> int:
        """NodeAffinity's score weight; 0 when it does not score in this profile."""
        return self.score_plugin_weights.get("NodeAffinity", 0)

    @property
    def image_locality_weight(self) -> int:
        """ImageLocality's score weight; 0 when it does not score in this profile."""
        return self.score_plugin_weights.get("ImageLocality", 0)


@dataclass(frozen=True)
class KubeSchedulerModel:
    """An accepted KubeSchedulerConfiguration, reduced to what scoring needs."""

    profiles: tuple[Profile, ...]

    @cached_property
    def scheduler_names(self) -> frozenset[str]:
        """The profiles' names: the pods (by ``spec.schedulerName``) this scheduler is responsible for."""
        return frozenset(p.scheduler_name for p in self.profiles)

    def profile(self, name: str) -> Profile | None:
        for p in self.profiles:
            if p.scheduler_name == name:
                return p
        return None


@dataclass(frozen=True)
class VolcanoBinpackArgs:
    """Effective arguments of one ``binpack`` plugin occurrence (docs/scoring.md, section 2).

    ``resources`` is ordered: cpu, memory, then the ``binpack.resources`` extras in list order.
    ``enable_node_order`` is the occurrence's ``enableNodeOrder`` switch only: whether Volcano's scoring
    loop calls binpack's node-order function for this occurrence. Whether the occurrence *registers* that
    function is ``weight != 0``; the function called is the one the last registering occurrence set up.
    """

    weight: int = 1
    resources: Mapping[str, int] = field(default_factory=lambda: {"cpu": 1, "memory": 1})
    enable_node_order: bool = True


@dataclass(frozen=True)
class VolcanoNodeOrderPlugin:
    """A plugin entry other than binpack whose node-order score Volcano adds and this tool does not model.

    ``weights``: nodeorder's effective priority weights (None for the other plugins).
    """

    name: str
    weights: Mapping[str, int] | None = None


@dataclass(frozen=True)
class VolcanoPredicateArgs:
    """The ``predicates`` plugin's switches for the filters this tool models (``predicate.<Name>Enable``,
    each true unless the arguments turn it off). NodeUnschedulable has no switch: it always runs."""

    node_affinity: bool = True
    node_ports: bool = True
    taint_toleration: bool = True


@dataclass(frozen=True)
class VolcanoModel:
    actions: tuple[str, ...]
    binpack: tuple[VolcanoBinpackArgs, ...]
    # Entries with node ordering on, in tier order, whose scores are left out of every total.
    other_node_order: tuple[VolcanoNodeOrderPlugin, ...] = ()
    # The predicates plugin as the allocate action calls it: the last ``predicates`` entry's switches, when
    # some ``predicates`` entry has ``enablePredicate`` on; None: only the allocate action's resource check runs.
    # The default is Volcano's own default conf, which lists ``predicates`` with no arguments.
    predicates: VolcanoPredicateArgs | None = VolcanoPredicateArgs()
    # Other plugins whose predicate functions the allocate action calls (not modelled), in tier order.
    other_predicates: tuple[str, ...] = ()


@dataclass(frozen=True)
class LegacyRtcrPriority:
    """A legacy Policy priority carrying ``requestedToCapacityRatioArguments``."""

    name: str
    weight: int
    shape: tuple[ShapePoint, ...]
    resources: tuple[ResourceWeight, ...]


@dataclass(frozen=True)
class LegacyPolicyModel:
    rtcr: LegacyRtcrPriority | None


SchedulerModel = KubeSchedulerModel | VolcanoModel | LegacyPolicyModel


def default_kube_scheduler_model() -> KubeSchedulerModel:
    """kube-scheduler 1.36 with no config file: one default profile, LeastAllocated cpu/memory."""
    return KubeSchedulerModel(
        profiles=(
            Profile(
                scheduler_name=DEFAULT_SCHEDULER_NAME,
                score_plugin_weights={
                    "NodeResourcesFit": 1,
                    "NodeResourcesBalancedAllocation": 1,
                    "ImageLocality": 1,
                    "TaintToleration": 3,
                    "NodeAffinity": 2,
                    "PodTopologySpread": 2,
                    "InterPodAffinity": 2,
                    "DynamicResources": 2,
                },
            ),
        )
    )


def _as_list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _as_int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return 0
    return value


def shape_falls(points: tuple[ShapePoint, ...] | list[ShapePoint]) -> bool:
    """True when a RequestedToCapacityRatio shape scores a full node lower than an empty one.

    The scorer interpolates the shape over utilization, so such a shape prefers emptier nodes:
    it spreads pods, the opposite of bin packing (the Kubernetes docs' own example does this).
    """
    ordered = list(points)
    if any(a.utilization >= b.utilization for a, b in itertools.pairwise(ordered)):
        return False  # not a valid shape at all: the scheduler's own validation reports it
    return len(ordered) >= 2 and ordered[-1].score < ordered[0].score
