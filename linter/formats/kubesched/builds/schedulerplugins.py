"""Facts about the scheduler-plugins build (kubernetes-sigs/scheduler-plugins), no logic.

Modelled on the project's ``master`` at commit 903da7df82cb8794dda8f2d510ba1156111662dd
(2026-08-16, the v0.35 line after tag v0.35.4-devel, built on Kubernetes 1.35.7). The newest
tagged release, v0.34.7 (8283b145), registers the same plugins except ``NodeMetadata``.

``PLUGINS``: every plugin its ``cmd/scheduler`` registers (``app.WithPlugin``), with the
extension points the plugin's Go type implements (the framework checks the methods, not the
``var _`` assertions). ``CrossNodePreemption`` is commented out of that registry, so the binary
does not have it. ``ARGS_KINDS``: the args kinds its scheme adds to
``kubescheduler.config.k8s.io/v1`` (``apis/config/v1/register.go``).
"""

from __future__ import annotations

NAME = "scheduler-plugins"
COMMIT = "903da7df82cb8794dda8f2d510ba1156111662dd"
LABEL = "scheduler-plugins (master 903da7df, v0.35 line)"

PLUGINS: dict[str, frozenset[str]] = {
    "CapacityScheduling": frozenset({"preFilter", "postFilter", "reserve"}),
    "Coscheduling": frozenset({"queueSort", "preFilter", "postFilter", "permit", "reserve"}),
    "LoadVariationRiskBalancing": frozenset({"score"}),
    "NetworkOverhead": frozenset({"preFilter", "filter", "score"}),
    "TopologicalSort": frozenset({"queueSort"}),
    "NodeMetadata": frozenset({"score"}),
    "NodeResourcesAllocatable": frozenset({"score"}),
    "NodeResourceTopologyMatch": frozenset({"preFilter", "filter", "reserve", "score", "postBind"}),
    "PreemptionToleration": frozenset({"postFilter"}),
    "TargetLoadPacking": frozenset({"score"}),
    "LowRiskOverCommitment": frozenset({"preScore", "score"}),
    "SySched": frozenset({"score"}),
    "Peaks": frozenset({"score"}),
    "PodState": frozenset({"score"}),
    "QOSSort": frozenset({"queueSort"}),
}
