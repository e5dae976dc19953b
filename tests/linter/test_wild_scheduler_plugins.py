"""Every scheduler-plugins config of the wild corpus, linted for the scheduler-plugins build.

The expected outcome is what the project's own scheduler binary (master 903da7df, see
docs/builds.md) does with the file: the error codes it would stop on, with one line of reason
each. Warnings are left to the per-rule tests. No file may get a "does not exist" for a plugin
that binary registers, and every plain kube-scheduler run of a v1 file names the build.
"""

from __future__ import annotations

import pytest
from paths import SHARED

from linter.engine import lint_paths
from linter.findings import Severity
from linter.settings import LintSettings

WILD = SHARED / "wild" / "files"
V1BETA = "BPL011"  # a removed config version: a 1.35/1.36 scheduler serves only v1

# file -> (error codes, text every error of the first code contains, reason)
EXPECTED: dict[str, tuple[set[str], str, str]] = {
    "sp-appgroup.yaml": (set(), "", "TopologicalSort/NetworkOverhead with args, NodeResourcesFit disabled"),
    "sp-appgroup-configmap-v1beta3.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-capacityscheduling.yaml": (set(), "", "CapacityScheduling takes no args"),
    "sp-coscheduling.yaml": (set(), "", "Coscheduling with a pluginConfig entry, sole queueSort"),
    "sp-doc-capacity.yaml": (set(), "", "same as the capacityscheduling manifest"),
    "sp-doc-coscheduling.yaml": (set(), "", "Coscheduling without pluginConfig gets defaulted args"),
    "sp-doc-crossnode.yaml": ({"BPL151"}, 'PostFilterPlugin "CrossNodePreemption" does not exist',
                              "CrossNodePreemption is commented out of cmd/scheduler"),
    "sp-doc-install.yaml": (set(), "", "Coscheduling without pluginConfig gets defaulted args"),
    "sp-doc-lro.yaml": (set(), "", "LowRiskOverCommitment with Prometheus args"),
    "sp-doc-lvrb.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-doc-networkaware.yaml": ({"BPL151"}, 'PreFilterPlugin "BalancedAllocation" does not exist (did you mean '
                                 '"NodeResourcesBalancedAllocation"?)', "no plugin is called BalancedAllocation"),
    "sp-doc-noderesources.yaml": (set(), "", "NodeResourcesAllocatable with positive weights"),
    "sp-doc-nrt-2.yaml": (set(), "", "NodeResourceTopologyMatch with args"),
    "sp-doc-preemptiontoleration.yaml": (set(), "", "PreemptionToleration without pluginConfig gets defaulted args"),
    "sp-doc-tlp-1.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-doc-tlp-2.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-hist-coscheduling-v1alpha2.yaml": ({V1BETA}, "v1alpha2", "v1alpha2 is not served"),
    "sp-hist-coscheduling-v1beta1.yaml": ({V1BETA}, "v1beta1", "v1beta1 is not served"),
    "sp-hist-coscheduling-v1beta2.yaml": ({V1BETA}, "v1beta2", "v1beta2 is not served"),
    "sp-hist-coscheduling-v1beta3.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-hist-noderesources-v1beta2.yaml": ({V1BETA}, "v1beta2", "v1beta2 is not served"),
    "sp-hist-trimaran-v1beta1.yaml": ({V1BETA}, "v1beta1", "v1beta1 is not served"),
    "sp-networktopology.yaml": (set(), "", "as sp-appgroup"),
    "sp-networktopology-configmap-v1beta3.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-nodemetadata-multidoc.yaml": (set(), "", "NodeMetadata (registered on master) with valid args"),
    "sp-noderesources.yaml": (set(), "", "NodeResourcesAllocatable with positive weights"),
    "sp-nrt.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-nrt-configmap.yaml": (set(), "", "NodeResourceTopologyMatch with args, in a ConfigMap"),
    "sp-nrt-configmap-v1beta1.yaml": ({V1BETA}, "v1beta1", "v1beta1 is not served"),
    "sp-nrt-v1beta1.yaml": ({V1BETA}, "v1beta1", "v1beta1 is not served"),
    "sp-peaks.yaml": (set(), "", "Peaks args keyed by the Go field names, as its malformed json tags require"),
    "sp-podstate.yaml": (set(), "", "PodState takes no args"),
    "sp-qos.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-sysched.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
    "sp-trimaran.yaml": ({V1BETA}, "v1beta3", "v1beta3 is not served"),
}


def test_every_scheduler_plugins_file_is_in_the_table() -> None:
    assert sorted(p.name for p in WILD.glob("sp-*")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scheduler_plugins_build_verdict(name: str) -> None:
    codes, text, _reason = EXPECTED[name]
    run = lint_paths([str(WILD / name)], LintSettings(scheduler="scheduler-plugins"))
    errors = [f for f in run.findings if f.severity is Severity.ERROR]
    assert {f.rule for f in errors} == codes, errors
    if text:
        assert all(text in f.message for f in errors if f.rule == min(codes)), errors
    assert not [f for f in errors if f.rule == "BPL151" and name != "sp-doc-crossnode.yaml"
                and "BalancedAllocation" not in f.message], "a registered plugin reported as missing"


@pytest.mark.parametrize("name", ["sp-coscheduling.yaml", "sp-noderesources.yaml", "sp-doc-lro.yaml"])
def test_plain_kube_scheduler_points_at_the_build(name: str) -> None:
    run = lint_paths([str(WILD / name)], LintSettings())
    unknown = [f for f in run.findings if f.rule == "BPL151"]
    assert unknown and "lint with --scheduler scheduler-plugins" in unknown[0].message
