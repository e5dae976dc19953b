"""Which scheduler binary a config is judged for: its plugins, their extension points, their args kinds.

* ``kube-scheduler`` (the default): kube-scheduler 1.36's in-tree plugins (``registry.PLUGINS``).
* ``scheduler-plugins``: the in-tree set plus what kubernetes-sigs/scheduler-plugins' scheduler
  registers (``schedulerplugins``), with that project's typed args (``outoftree_args``).
* plugins a user's own build registers (``plugins:`` in the project config), with the extension
  points each implements; their args are passed on undecoded (their kinds are unknown here).

The in-tree part is kube-scheduler 1.36 for every build, except what depends on the Kubernetes
version a build is compiled with: scheduler-plugins uses 1.35, whose ``v1.Plugins`` lacks the
placement extension points (``configuration``), whose registry lacks the placement plugins, whose
default set lacks NodeDeclaredFeatures (``default_multi_point``) and whose DRADeviceBindingConditions
gate is off (``binding_conditions``: DynamicResourcesArgs.bindingTimeout is then forbidden).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from linter.formats.kubesched.builds import schedulerplugins
from linter.formats.kubesched.builds.suggest import suggest
from linter.formats.kubesched.outoftree_args.types import ARGS_TYPES as OUT_OF_TREE_ARGS
from linter.formats.kubesched.registry import DEFAULT_MULTI_POINT, DEFAULT_MULTI_POINT_1_35, PLUGINS_1_35
from linter.formats.kubesched.registry import PLUGINS as IN_TREE
from linter.formats.kubesched.types import ARGS_TYPES as IN_TREE_ARGS
from linter.formats.kubesched.types import CONFIGURATION, CONFIGURATION_1_35, GoType

KUBE_SCHEDULER = "kube-scheduler"
SCHEDULER_PLUGINS = schedulerplugins.NAME
BUILDS = (KUBE_SCHEDULER, SCHEDULER_PLUGINS)


@dataclass(frozen=True)
class Build:
    name: str
    label: str  # how messages name the binary
    plugins: Mapping[str, frozenset[str] | None]
    args_types: Mapping[str, GoType] = field(default_factory=dict)
    declared: frozenset[str] = frozenset()  # the user's own plugins (args passed on undecoded)
    configuration: GoType = CONFIGURATION  # the KubeSchedulerConfiguration type its strict decoder uses
    default_multi_point: tuple[tuple[str, int | None], ...] = DEFAULT_MULTI_POINT
    binding_conditions: bool = True  # DRADeviceBindingConditions' default (on from Kubernetes 1.36)

    @property
    def args_kinds(self) -> frozenset[str]:
        return frozenset(f"{n}Args" for n in self.args_types)

    def is_out_of_tree(self, name: str) -> bool:
        return name in self.plugins and name not in IN_TREE

    def did_you_mean(self, name: str) -> str:
        """`` (did you mean "X"?)`` for a name this build lacks, or a hint naming the build that has it."""
        guess = suggest(name, self.plugins)
        if guess is not None:
            return f' (did you mean "{guess}"?)'
        if self.name == KUBE_SCHEDULER and name in schedulerplugins.PLUGINS:
            return (f" ({name} is a kubernetes-sigs/scheduler-plugins plugin: lint with --scheduler "
                    f"scheduler-plugins)")
        return ""


VANILLA = Build(KUBE_SCHEDULER, "kube-scheduler 1.36", IN_TREE, IN_TREE_ARGS)


@lru_cache(maxsize=32)
def resolve(name: str = KUBE_SCHEDULER, declared: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> Build:
    """The build called ``name`` plus the user's declared plugins ``(name, extension points)``."""
    if name not in BUILDS:
        raise ValueError(f"unknown scheduler {name!r} (expected one of: {', '.join(BUILDS)})")
    if name == KUBE_SCHEDULER and not declared:
        return VANILLA
    plugins: dict[str, frozenset[str] | None] = dict(IN_TREE)
    args = dict(IN_TREE_ARGS)
    label = VANILLA.label
    kubernetes_1_35 = name == SCHEDULER_PLUGINS
    if kubernetes_1_35:
        plugins = dict(PLUGINS_1_35)
        plugins.update(schedulerplugins.PLUGINS)
        args.update(OUT_OF_TREE_ARGS)
        label = schedulerplugins.LABEL
    for plugin, points in declared:
        plugins[plugin] = frozenset(points)
    if declared:
        label += " with your plugins"
    if not kubernetes_1_35:
        return Build(name, label, plugins, args, frozenset(p for p, _ in declared))
    return Build(name, label, plugins, args, frozenset(p for p, _ in declared), CONFIGURATION_1_35,
                 DEFAULT_MULTI_POINT_1_35, binding_conditions=False)
