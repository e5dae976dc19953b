"""notModelledForPod: the in-tree plugins the model leaves out that act on one pod (linter.scoring.unmodelled).

Each condition is checked both ways: the pod (or cluster) that makes kube-scheduler 1.36 run the plugin, and
the nearest one whose PreFilter/PreScore returns Skip. The profile decides too: a plugin it does not run at
that point is never named.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter.engine import load_scheduler_model
from linter.explain import explain
from linter.explain.render_text import render_text
from linter.model import KubeSchedulerModel, Profile
from linter.scoring.unmodelled import AffinityCounts, plugins_for_pod

from .preemption.build import node, pod
from .test_cluster_nominated import state_of

Obj = dict[str, Any]
HOST = "kubernetes.io/hostname"
TERM = {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": HOST}
REQUIRED_ANTI = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [TERM]}}
REQUIRED_AFFINITY = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [TERM]}}
PREFERRED_ANTI = {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
    {"weight": 10, "podAffinityTerm": TERM}]}}
RS_OWNER = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "uid": "u", "controller": True}
NONE = AffinityCounts()


def _model(args: str = "") -> KubeSchedulerModel:
    text = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
            "- schedulerName: default-scheduler\n" + args)
    model, findings = load_scheduler_model(text, "c.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    return model


DEFAULT = _model().profiles[0]


def _pending(**spec: Any) -> Obj:
    built = pod("p", None, None)
    meta = spec.pop("metadata", {})
    built["metadata"].update(meta)
    built["spec"].update(spec)
    return built


def _acting(obj: Obj, profile: Profile = DEFAULT, counts: AffinityCounts = NONE, *, scored: bool = True
            ) -> tuple[set[str], set[str]]:
    found = plugins_for_pod(obj, profile, counts, scored=scored)
    return set(found.get("filters", {})), set(found.get("scores", {}))


def test_a_plain_pod_has_none() -> None:
    assert plugins_for_pod(_pending(), DEFAULT, NONE, scored=True) == {}


@pytest.mark.parametrize(("affinity", "filters", "scores"), [
    (REQUIRED_ANTI, {"InterPodAffinity"}, set()),
    (REQUIRED_AFFINITY, {"InterPodAffinity"}, set()),
    (PREFERRED_ANTI, set(), {"InterPodAffinity"}),
    # empty term lists: the API server drops them, and the plugin skips
    ({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [],
                          "preferredDuringSchedulingIgnoredDuringExecution": []}}, set(), set()),
    ({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}, set(), set()),
])
def test_the_pods_own_pod_affinity_terms(affinity: Obj, filters: set[str], scores: set[str]) -> None:
    assert _acting(_pending(affinity=affinity)) == (filters, scores)


def test_bound_pods_with_required_anti_affinity_make_the_filter_act_on_every_pod() -> None:
    filters, _ = _acting(_pending(), counts=AffinityCounts(required_anti_affinity=2))
    assert filters == {"InterPodAffinity"}
    found = plugins_for_pod(_pending(), DEFAULT, AffinityCounts(required_anti_affinity=2), scored=True)
    assert found["filters"]["InterPodAffinity"].startswith("2 bound pod(s)")
    assert _acting(_pending(), counts=AffinityCounts(preferred_terms=3))[0] == set()  # scores only


def test_bound_pods_terms_score_other_pods_unless_the_args_turn_that_off() -> None:
    assert _acting(_pending(), counts=AffinityCounts(preferred_terms=1))[1] == {"InterPodAffinity"}
    assert _acting(_pending(), counts=AffinityCounts(required_affinity=1))[1] == {"InterPodAffinity"}
    ignoring = _model("  pluginConfig:\n  - name: InterPodAffinity\n    args:\n"
                      "      ignorePreferredTermsOfExistingPods: true\n").profiles[0]
    assert _acting(_pending(), ignoring, AffinityCounts(preferred_terms=1, required_affinity=1))[1] == set()
    assert _acting(_pending(affinity=PREFERRED_ANTI), ignoring)[1] == {"InterPodAffinity"}  # its own terms
    hard_zero = _model("  pluginConfig:\n  - name: InterPodAffinity\n    args:\n"
                       "      hardPodAffinityWeight: 0\n").profiles[0]
    assert _acting(_pending(), hard_zero, AffinityCounts(required_affinity=1))[1] == set()
    assert _acting(_pending(), hard_zero, AffinityCounts(preferred_terms=1))[1] == {"InterPodAffinity"}


def _constraint(when: str) -> Obj:
    return {"maxSkew": 1, "topologyKey": HOST, "whenUnsatisfiable": when,
            "labelSelector": {"matchLabels": {"app": "web"}}}


def test_the_pods_own_topology_spread_constraints() -> None:
    assert _acting(_pending(topologySpreadConstraints=[_constraint("DoNotSchedule")])) == (
        {"PodTopologySpread"}, set())
    assert _acting(_pending(topologySpreadConstraints=[_constraint("ScheduleAnyway")])) == (
        set(), {"PodTopologySpread"})
    # constraints of its own replace the defaults, even for an owned pod
    owned = _pending(topologySpreadConstraints=[_constraint("DoNotSchedule")], metadata={"ownerReferences": [RS_OWNER]})
    assert _acting(owned) == ({"PodTopologySpread"}, set())


@pytest.mark.parametrize(("owner", "acts"), [
    (RS_OWNER, True),
    ({**RS_OWNER, "kind": "StatefulSet", "name": "db"}, True),
    ({"apiVersion": "v1", "kind": "ReplicationController", "name": "rc", "uid": "u", "controller": True}, True),
    ({**RS_OWNER, "controller": False}, False),  # not the controller: DefaultSelector ignores it
    ({**RS_OWNER, "apiVersion": "extensions/v1beta1"}, False),  # another group version: not its kind
    ({"apiVersion": "batch/v1", "kind": "Job", "name": "j", "uid": "u", "controller": True}, False),
])
def test_system_default_spreading_follows_the_controller_owner(owner: Obj, acts: bool) -> None:
    owned = _pending(metadata={"ownerReferences": [owner]})
    assert _acting(owned) == (set(), {"PodTopologySpread"} if acts else set())


def test_list_default_constraints_can_filter() -> None:
    listed = _model("  pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n"
                    "      defaultConstraints:\n      - maxSkew: 1\n        topologyKey: topology.kubernetes.io/zone\n"
                    "        whenUnsatisfiable: DoNotSchedule\n").profiles[0]
    owned = _pending(metadata={"ownerReferences": [RS_OWNER]})
    assert _acting(owned, listed) == ({"PodTopologySpread"}, set())
    empty = _model("  pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n").profiles[0]
    assert _acting(owned, empty) == (set(), set())


@pytest.mark.parametrize(("volume", "filters"), [
    ({"name": "v", "persistentVolumeClaim": {"claimName": "data"}},
     {"VolumeBinding", "VolumeZone", "NodeVolumeLimits", "VolumeRestrictions"}),
    ({"name": "v", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}}, {"VolumeBinding", "NodeVolumeLimits"}),
    ({"name": "v", "awsElasticBlockStore": {"volumeID": "vol-1"}}, {"NodeVolumeLimits", "VolumeRestrictions"}),
    ({"name": "v", "azureDisk": {"diskName": "d", "diskURI": "u"}}, {"NodeVolumeLimits"}),
    ({"name": "v", "iscsi": {"targetPortal": "t", "iqn": "i", "lun": 0}}, {"VolumeRestrictions"}),
    ({"name": "v", "emptyDir": {}}, set()),
    ({"name": "v", "configMap": {"name": "c"}}, set()),
])
def test_volumes(volume: Obj, filters: set[str]) -> None:
    assert _acting(_pending(volumes=[volume])) == (filters, set())


def test_resource_claims() -> None:
    claims = [{"name": "gpu", "resourceClaimTemplateName": "gpu"}]
    assert _acting(_pending(resourceClaims=claims)) == ({"DynamicResources"}, {"DynamicResources"})
    assert _acting(_pending(resourceClaims=[])) == (set(), set())


def test_only_what_the_profile_runs_and_scores_only_with_two_feasible_nodes() -> None:
    spread = _pending(topologySpreadConstraints=[_constraint("ScheduleAnyway")], affinity=REQUIRED_ANTI)
    assert _acting(spread, scored=False) == ({"InterPodAffinity"}, set())
    narrow = _model("  plugins:\n    filter:\n      disabled:\n      - name: InterPodAffinity\n"
                    "    score:\n      disabled:\n      - name: PodTopologySpread\n").profiles[0]
    assert _acting(spread, narrow) == (set(), set())


def test_the_cluster_state_counts_bound_pods_across_add_update_and_delete() -> None:
    state = state_of(node("n1"), pod("a", "n1", 0))
    assert state.affinity_counts == NONE
    anti = pod("a", "n1", 0)
    anti["spec"]["affinity"] = {"podAntiAffinity": {**REQUIRED_ANTI["podAntiAffinity"],
                                                    **PREFERRED_ANTI["podAntiAffinity"]}}
    state.apply_pod(anti)  # MODIFIED: the terms appear
    state.apply_pod(anti)  # the same again: counted once
    assert state.affinity_counts == AffinityCounts(required_anti_affinity=1, preferred_terms=1)
    other = pod("b", "n1", 0)
    other["spec"]["affinity"] = REQUIRED_AFFINITY
    state.apply_pod(other)
    assert state.affinity_counts == AffinityCounts(1, 1, 1)
    state.apply_pod({**anti, "status": {"phase": "Succeeded"}})  # terminal: no longer on the node
    assert state.affinity_counts == AffinityCounts(required_affinity=1)
    state.delete_pod("default", "b")
    assert state.affinity_counts == NONE
    pending = pod("c", None, 0, nominated="n1")
    pending["spec"]["affinity"] = REQUIRED_ANTI
    state.apply_pod(pending)  # not bound: the scheduler's NodeInfos do not hold it
    assert state.affinity_counts == NONE


def test_explain_computes_inter_pod_affinity_instead_of_naming_it() -> None:
    """explain models InterPodAffinity (linter.explain.podaffinity): a bound pod's required anti-affinity that
    selects the pending pod keeps it off that pod's node, and the plugin is no longer named; another unmodelled
    plugin still is."""
    bound = pod("a", "n1", 0)
    bound["spec"]["affinity"] = REQUIRED_ANTI
    nodes = [node("n1", labels={HOST: "n1"}), node("n2", labels={HOST: "n2"})]
    doc = explain(_model(), nodes, [bound], _pending(metadata={"labels": {"app": "web"}}))
    assert doc["notModelledForPod"] == {}
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["n1"]["reasons"] == ["node(s) didn't satisfy existing pods anti-affinity rules"]
    assert by_name["n1"]["rejectedByPlugin"] == "InterPodAffinity" and by_name["n2"]["feasible"]
    assert "act on this pod" not in render_text(doc)
    claims = explain(_model(), nodes, [bound], _pending(resourceClaims=[{"name": "gpu"}]))
    assert "DynamicResources" in claims["notModelledForPod"]["filters"]
    assert "InterPodAffinity" not in claims["notModelledForPod"]["filters"]


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_explain_reads_the_bound_pods_terms_from_a_dump(tmp_path: Path, fmt: str) -> None:
    """The streamed readers keep the pod affinity terms: two bound pods of one request shape, one of them
    with required anti-affinity; only that one's node is kept from the pod (the shape cache tells them apart)."""
    anti = pod("b", "n1", 0)
    anti["spec"]["affinity"] = REQUIRED_ANTI
    items = [node("n1", labels={HOST: "n1"}), node("n2", labels={HOST: "n2"}), pod("a", "n2", 0), anti,
             pod("c", "n2", 0)]
    listing = {"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", **obj} for obj in items]}
    state = tmp_path / f"state.{fmt}"
    state.write_text(yaml.safe_dump(listing) if fmt == "yaml" else json.dumps(listing, indent=4))
    pending = tmp_path / "pod.yaml"
    pending.write_text(yaml.safe_dump({"apiVersion": "v1", **_pending(metadata={"labels": {"app": "web"}})}))
    proc = subprocess.run([sys.executable, "-m", "linter", "explain", "--cluster", str(state), "--pod",
                           str(pending), "-f", "json"], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    nodes = {n["name"]: n for n in json.loads(proc.stdout)["nodes"]}
    assert nodes["n1"]["reasons"] == ["node(s) didn't satisfy existing pods anti-affinity rules"]
    assert nodes["n2"]["feasible"]
