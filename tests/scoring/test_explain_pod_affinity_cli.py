"""``binpack-lint explain`` with InterPodAffinity (linter.explain.podaffinity): the Filter in the chain, the
Score in the totals, the JSON keys and text lines, Namespaces for namespaceSelectors and bad fields.

Expected numbers are worked out by hand from kube-scheduler 1.36 (docs/scoring.md, InterPodAffinity).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from .preemption.build import node, pod

HOST, ZONE = "kubernetes.io/hostname", "topology.kubernetes.io/zone"
Obj = dict[str, Any]


def _nodes() -> list[Obj]:
    return [node("n1", labels={HOST: "n1", ZONE: "a"}), node("n2", labels={HOST: "n2", ZONE: "b"})]


def _run(tmp_path: Path, items: list[Obj], pending: Obj, fmt: str = "json", out: str = "json"
         ) -> subprocess.CompletedProcess[str]:
    listing = {"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", **obj} for obj in items]}
    state = tmp_path / f"state.{fmt}"
    state.write_text(yaml.safe_dump(listing) if fmt == "yaml" else json.dumps(listing, indent=4))
    pod_file = tmp_path / "pod.yaml"
    pod_file.write_text(yaml.safe_dump({"apiVersion": "v1", **pending}))
    return subprocess.run([sys.executable, "-m", "linter", "explain", "--cluster", str(state), "--pod", str(pod_file),
                           "-f", out], capture_output=True, text=True, timeout=120, check=False)


def _pending(affinity: Obj, labels: dict[str, str] | None = None) -> Obj:
    built = pod("p", None, None, labels=labels or {})
    built["spec"]["affinity"] = affinity
    return built


PREFER_DB = {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
    {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": ZONE}}]}}


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_preferred_affinity_moves_the_best_node(tmp_path: Path, fmt: str) -> None:
    # three db replicas (one pod text: the YAML reader's known-text path) on n2, in zone b
    dbs = [pod(f"db{i}", "n2", 0, cpu=None, labels={"app": "db"}) for i in range(3)]
    proc = _run(tmp_path, [*_nodes(), *dbs], _pending(PREFER_DB), fmt)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["interPodAffinityWeight"] == 2 and doc["interPodAffinitySkipped"] is False
    assert doc["interPodAffinityNeedsNamespaces"] is False
    best, other = doc["nodes"]
    # raw: 3 matching pods x weight 100 in zone b; normalised (300 - 0) / 300 -> 100, weight 2 -> +200
    assert (best["name"], best["interPodAffinityRaw"], best["interPodAffinityScore"]) == ("n2", 300, 100)
    assert (other["name"], other["interPodAffinityRaw"], other["interPodAffinityScore"]) == ("n1", 0, 0)
    assert best["total"] - other["total"] > 150  # the fit score alone prefers the empty n1
    assert doc["notModelledForPod"] == {}


def test_text_lines_and_column(tmp_path: Path) -> None:
    dbs = [pod("db", "n2", 0, cpu=None, labels={"app": "db"})]
    proc = _run(tmp_path, [*_nodes(), *dbs], _pending(PREFER_DB), out="text")
    assert proc.returncode == 0, proc.stderr
    assert "  InterPodAffinity, weight 2: int(100 * (summed term weights - 0) / 100)" in proc.stdout
    assert "    InterPodAffinity = int(100 * (100 - 0) / 100) = 100; * weight 2" in proc.stdout
    assert "pod-aff" in proc.stdout


def test_required_affinity_filters_and_is_named_in_the_reasons(tmp_path: Path) -> None:
    need = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": ZONE}]}}
    proc = _run(tmp_path, [*_nodes(), pod("db", "n2", 0, labels={"app": "db"})], _pending(need))
    doc = json.loads(proc.stdout)
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["n1"]["reasons"] == ["node(s) didn't match pod affinity rules"]
    assert by_name["n1"]["rejectedByPlugin"] == "InterPodAffinity" and by_name["n2"]["feasible"]


def test_namespace_selector_needs_namespaces(tmp_path: Path) -> None:
    need = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": ZONE,
         "namespaceSelector": {"matchLabels": {"team": "x"}}}]}}
    items = [*_nodes(), pod("db", "n2", 0, ns="data", labels={"app": "db"})]
    without = json.loads(_run(tmp_path, items, _pending(need)).stdout)
    assert without["interPodAffinityNeedsNamespaces"] is True
    # no namespace selected: nothing counted, and p does not match its own term: no node
    assert not any(n["feasible"] for n in without["nodes"])
    text = _run(tmp_path, items, _pending(need), out="text").stdout
    assert "STATE holds no Namespace objects" in text
    ns = {"kind": "Namespace", "metadata": {"name": "data", "labels": {"team": "x"}}}
    with_ns = json.loads(_run(tmp_path, [*items, ns], _pending(need)).stdout)
    assert with_ns["interPodAffinityNeedsNamespaces"] is False
    assert [n["name"] for n in with_ns["nodes"] if n["feasible"]] == ["n2"]


def test_preemption_leaves_out_only_a_prefilter_failure(tmp_path: Path) -> None:
    """The preemption section runs the Filter (tests/scoring/test_explain_pod_affinity_preemption.py), so an
    anti-affinity rejection leaves nothing out; a PreFilter failure (a term that does not parse), which
    rejects every node, is what ``preemptionLeavesOut`` still names, and ``notModelledForPod`` never does."""
    anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": ZONE}]}}
    items = [*_nodes(), pod("w1", "n1", 0, labels={"app": "web"}), pod("w2", "n2", 0, labels={"app": "web"})]
    doc = json.loads(_run(tmp_path, items, _pending(anti, {"app": "web"})).stdout)
    assert not any(n["feasible"] for n in doc["nodes"])
    assert (doc["preemptionLeavesOut"], doc["notModelledForPod"]) == ([], {})
    bad = {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {
        "topologyKey": ZONE, "labelSelector": {"matchExpressions": [{"key": "a", "operator": "In"}]}}}]}}
    doc = json.loads(_run(tmp_path, items, _pending(bad)).stdout)
    assert {n["reasons"][0][:12] for n in doc["nodes"]} == {"parsing pod:"}
    assert doc["preemptionLeavesOut"] == ["InterPodAffinity"]
    assert "note: the preemption section's dry runs leave out InterPodAffinity's filter" in _run(
        tmp_path, items, _pending(bad), out="text").stdout
    feasible = json.loads(_run(tmp_path, items[:2], _pending(anti, {"app": "web"})).stdout)
    assert feasible["preemptionLeavesOut"] == []


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_bad_term_field_is_one_line(tmp_path: Path, fmt: str) -> None:
    bad = pod("b", "n1", 0)
    bad["spec"]["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": 5}]}}
    proc = _run(tmp_path, [*_nodes(), bad], _pending(PREFER_DB), fmt)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"binpack-lint explain: error: STATE {tmp_path / f'state.{fmt}'}: Pod default/b: spec.affinity.podAntiAffinity."
        "requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey must be a string (got a number)"]


def test_a_bad_label_of_a_bound_pod_is_one_line(tmp_path: Path) -> None:
    bad = pod("b", "n1", 0)
    bad["metadata"]["labels"] = {"app": 5}
    proc = _run(tmp_path, [*_nodes(), bad], _pending(PREFER_DB))
    assert proc.returncode == 2
    assert proc.stderr.strip().endswith("Pod default/b: metadata.labels.app must be a string (got a number)")


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_terminating_pod_counts_for_inter_pod_affinity_but_not_for_topology_spread(tmp_path: Path, fmt: str) -> None:
    """Both plugins read the bound pods' labels from one grouping; kube-scheduler's InterPodAffinity matches a
    terminating pod, PodTopologySpread leaves it out. The db pod on n1 is terminating: PodTopologySpread (which
    filters first) sees zones a and b empty and passes n1, InterPodAffinity's anti-affinity rejects it."""
    leaving = pod("db0", "n1", 0, cpu=None, labels={"app": "db"})
    leaving["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    pending = _pending({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": HOST}]}})
    pending["spec"]["topologySpreadConstraints"] = [{"maxSkew": 1, "topologyKey": ZONE,
                                                     "whenUnsatisfiable": "DoNotSchedule",
                                                     "labelSelector": {"matchLabels": {"app": "db"}}}]
    proc = _run(tmp_path, [*_nodes(), leaving], pending, fmt)
    assert proc.returncode == 0, proc.stderr
    nodes = {n["name"]: n for n in json.loads(proc.stdout)["nodes"]}
    assert nodes["n1"]["rejectedByPlugin"] == "InterPodAffinity"
    assert nodes["n1"]["reasons"] == ["node(s) didn't match pod anti-affinity rules"]
    assert nodes["n2"]["feasible"]


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_pods_nominated_to_a_node_count_in_its_filter(tmp_path: Path, fmt: str) -> None:
    """kube-scheduler's PreFilter extensions add the pods nominated to a node (priority >= the pod's) while it
    filters that node: a nominated web pod keeps the anti-affine pod off n1, and a nominated pod whose own
    required anti-affinity selects the pod does too, unless PreFilter skipped the plugin (the pod has no
    required terms and no bound pod's anti-affinity selects it: AddPod is not called); a nomination of
    lower priority counts for nothing."""
    anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": HOST}]}}
    web = pod("web", None, 0, cpu=None, labels={"app": "web"}, nominated="n1")
    doc = json.loads(_run(tmp_path, [*_nodes(), web], _pending(anti), fmt).stdout)
    nodes = {n["name"]: n for n in doc["nodes"]}
    assert nodes["n1"]["reasons"] == ["node(s) didn't match pod anti-affinity rules"]
    assert nodes["n1"]["nominatedPods"] == ["default/web"] and nodes["n2"]["feasible"]
    guard = pod("guard", None, 0, cpu=None, nominated="n2")
    guard["spec"]["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": ZONE}]}}
    shy = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "nobody"}}, "topologyKey": HOST}]}}
    doc = json.loads(_run(tmp_path, [*_nodes(), guard], _pending(shy, {"app": "db"}), fmt).stdout)
    nodes = {n["name"]: n for n in doc["nodes"]}
    assert nodes["n2"]["reasons"] == ["node(s) didn't satisfy existing pods anti-affinity rules"]
    assert nodes["n1"]["feasible"]
    skipped = _pending({"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": []}}, {"app": "db"})
    assert all(n["feasible"] for n in json.loads(_run(tmp_path, [*_nodes(), guard], skipped, fmt).stdout)["nodes"])
    lower = pod("web", None, -1, cpu=None, labels={"app": "web"}, nominated="n1")
    doc = json.loads(_run(tmp_path, [*_nodes(), lower], _pending(anti), fmt).stdout)
    assert all(n["feasible"] for n in doc["nodes"])


def test_without_namespaces_a_bound_pods_selector_reads_an_unlabelled_namespace(tmp_path: Path) -> None:
    """A bound pod's required anti-affinity with a ``DoesNotExist`` namespaceSelector matches the pending pod
    when STATE has no Namespaces (kube-scheduler's empty label set for a namespace it cannot find), so the
    text line must not say that no namespace matched."""
    anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": ZONE,
         "namespaceSelector": {"matchExpressions": [{"key": "team", "operator": "DoesNotExist"}]}}]}}
    guard = pod("guard", "n1", 0, labels={"app": "x"})
    guard["spec"]["affinity"] = anti
    pending = pod("p", None, None, ns="other", labels={"app": "web"})
    doc = json.loads(_run(tmp_path, [*_nodes(), guard], pending).stdout)
    assert doc["interPodAffinityNeedsNamespaces"] is True
    assert [n["name"] for n in doc["nodes"] if n["feasible"]] == ["n2"]
    text = _run(tmp_path, [*_nodes(), guard], pending, out="text").stdout
    assert ("the pod's own selectors took no namespace, bound pods' selectors were matched against a namespace "
            "without labels") in text
    assert "no namespace was taken as matching" not in text
    labelled = {"kind": "Namespace", "metadata": {"name": "other", "labels": {"team": "t"}}}
    with_ns = json.loads(_run(tmp_path, [*_nodes(), guard, labelled], pending).stdout)
    assert with_ns["interPodAffinityNeedsNamespaces"] is False
    assert sorted(n["name"] for n in with_ns["nodes"] if n["feasible"]) == ["n1", "n2"]
