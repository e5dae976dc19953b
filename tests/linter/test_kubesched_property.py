"""Generated configurations: the analysis never crashes, and the schema never rejects a file the
analysis (kube-scheduler's own stages) accepts."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter import schema
from linter.engine import lint_text
from linter.findings import Severity
from linter.formats.kubesched.analysis import analyze
from linter.reading import read_stream

SCALARS = st.one_of(st.integers(-3, 120), st.sampled_from([0, 1, 5.0, 5.5, 2**31, -(2**40)]), st.booleans(),
                    st.none(), st.sampled_from(["", "cpu", "15s", "x", "MostAllocated", "*"]))
NAMES = st.sampled_from(["NodeResourcesFit", "NodeResourcesBalancedAllocation", "TaintToleration", "ImageLocality",
                         "PrioritySort", "DefaultBinder", "NodePorts", "VolumeBinding", "Nope", "*", "EBSLimits"])
RESOURCE = st.fixed_dictionaries({"name": st.sampled_from(["cpu", "memory", "nvidia.com/gpu", ""])},
                                 optional={"weight": SCALARS})
POINT = st.fixed_dictionaries({}, optional={"utilization": SCALARS, "score": SCALARS})
STRATEGY = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio", "", "Bogus"]),
    "resources": st.lists(RESOURCE, max_size=3),
    "requestedToCapacityRatio": st.one_of(st.none(), st.fixed_dictionaries(
        {}, optional={"shape": st.lists(POINT, max_size=3)}))})
ARGS = {
    "NodeResourcesFit": st.fixed_dictionaries({}, optional={"scoringStrategy": STRATEGY}),
    "NodeResourcesBalancedAllocation": st.fixed_dictionaries(
        {}, optional={"resources": st.lists(RESOURCE, max_size=3)}),
    "InterPodAffinity": st.fixed_dictionaries({}, optional={"hardPodAffinityWeight": SCALARS}),
    "DefaultPreemption": st.fixed_dictionaries({}, optional={"minCandidateNodesPercentage": SCALARS,
                                                             "minCandidateNodesAbsolute": SCALARS}),
    "RequestedToCapacityRatio": st.fixed_dictionaries({}, optional={"shape": st.lists(POINT, max_size=2)}),
}
PLUGIN = st.fixed_dictionaries({"name": NAMES}, optional={"weight": SCALARS})
PLUGIN_SET = st.fixed_dictionaries({}, optional={"enabled": st.lists(PLUGIN, max_size=2),
                                                 "disabled": st.lists(PLUGIN, max_size=2)})
PLUGINS = st.fixed_dictionaries({}, optional={p: PLUGIN_SET for p in ("score", "multiPoint", "filter", "queueSort")})
CONFIG_ENTRY = st.sampled_from(sorted(ARGS)).flatmap(
    lambda n: st.fixed_dictionaries({"name": st.just(n)}, optional={"args": ARGS[n]}))
PROFILE = st.fixed_dictionaries({}, optional={
    "schedulerName": st.sampled_from(["default-scheduler", "binpack", ""]), "plugins": PLUGINS,
    "pluginConfig": st.lists(CONFIG_ENTRY, max_size=2), "percentageOfNodesToScore": SCALARS})
CONFIG = st.fixed_dictionaries(
    {"apiVersion": st.just("kubescheduler.config.k8s.io/v1"), "kind": st.just("KubeSchedulerConfiguration")},
    optional={"parallelism": SCALARS, "percentageOfNodesToScore": SCALARS, "podInitialBackoffSeconds": SCALARS,
              "podMaxBackoffSeconds": SCALARS, "profiles": st.lists(PROFILE, max_size=2),
              "leaderElection": st.fixed_dictionaries({}, optional={"leaderElect": SCALARS,
                                                                     "leaseDuration": SCALARS}),
              "extenders": st.lists(st.fixed_dictionaries({"urlPrefix": st.just("http://e")},
                                                          optional={"prioritizeVerb": SCALARS, "weight": SCALARS}),
                                    max_size=2)})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CONFIG)
def test_schema_never_rejects_an_accepted_config(config: dict[str, Any]) -> None:
    text = json.dumps(config)
    # the document as the linter reads it: a config that starts with '{' is read as JSON, number literals kept
    (doc,) = read_stream(text, "c.json", None).documents
    result = analyze(doc)
    if result.accepted:
        assert schema.validate(doc, "kubescheduler-config-v1") == [], text
        assert result.model is not None
    findings = lint_text(text, "c.json")
    errors = [f for f in findings if f.severity is Severity.ERROR and f.rule not in ("BPL200",)]
    assert (not errors) == result.accepted, (text, errors)


ANY = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["RequestedToCapacityRatio",
                                                                                           "NodeLabel", "x"])),
                   lambda inner: st.one_of(st.lists(inner, max_size=3),
                                           st.dictionaries(st.sampled_from(["name", "args", "enabled", "weight",
                                                                            "shape", "resources"]), inner, max_size=3)),
                   max_leaves=12)
OLD_PROFILE = st.dictionaries(st.sampled_from(["pluginConfig", "plugins", "schedulerName"]), ANY, max_size=3)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(OLD_PROFILE, max_size=2), OLD_PROFILE, ANY),
       st.sampled_from(["v1alpha1", "v1beta1", "v1beta2", "v1beta3"]))
def test_removed_versions_never_crash_and_always_error(profiles: Any, version: str) -> None:
    text = json.dumps({"apiVersion": f"kubescheduler.config.k8s.io/{version}", "kind": "KubeSchedulerConfiguration",
                       "profiles": profiles})
    findings = lint_text(text, "old.json")
    assert [f.rule for f in findings if f.severity is Severity.ERROR] == ["BPL011"]
