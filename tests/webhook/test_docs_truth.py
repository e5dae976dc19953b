"""The webhook docs list what the code has: every setting (docs/webhook.md's table, docs/server.md's
environment variables), every metric the server exposes (the metrics tables of docs/operations.md and
docs/webhook.md), and every field the pod webhook writes into its prediction annotation."""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

from linter.scoring.cluster.preemption import FastPreemption
from linter.scoring.cluster.rank import ENGINE_VOLCANO, Ranking
from webhook import cli as webhook_cli
from webhook import kubectl_binpack
from webhook.admission.decide.pods import PREDICTION_ANNOTATION, fit_annotations, preemption_summary
from webhook.cluster.static import StaticClusterView
from webhook.server.metrics import Metrics
from webhook.settings import Settings, env_name

DOCS = Path(__file__).resolve().parents[2] / "docs"
WEBHOOK_MD = (DOCS / "webhook.md").read_text(encoding="utf-8")
SERVER_MD = (DOCS / "server.md").read_text(encoding="utf-8")
OPERATIONS_MD = (DOCS / "operations.md").read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def _first_cells(table_text: str) -> set[str]:
    """The backticked names in the first cell of each table row."""
    names: set[str] = set()
    for line in table_text.splitlines():
        if line.startswith("| ") and not line.startswith("| ---"):
            names.update(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return names


def test_every_setting_is_in_the_webhook_settings_table() -> None:
    table = _first_cells(_section(WEBHOOK_MD, "## Settings"))
    missing = [f.name for f in dataclasses.fields(Settings) if f.name not in table]
    assert not missing, f"docs/webhook.md 'Settings' lacks {missing}"
    unknown = table - {f.name for f in dataclasses.fields(Settings)}
    assert not unknown, f"docs/webhook.md 'Settings' lists settings the code does not have: {sorted(unknown)}"


def test_every_setting_has_its_environment_variable_in_server_md() -> None:
    table = _section(SERVER_MD, "## Flags and environment variables")
    missing = [env_name(f.name) for f in dataclasses.fields(Settings) if f"`{env_name(f.name)}`" not in table]
    assert not missing, f"docs/server.md's flag table lacks {missing}"


def _exposed_metric_families() -> set[str]:
    text = Metrics(StaticClusterView()).render().decode()
    return set(re.findall(r"^# TYPE (\S+) \S+$", text, re.M))


def test_every_metric_is_in_the_metrics_tables() -> None:
    exposed = _exposed_metric_families()
    assert "binpack_guard_admission_requests_total" in exposed and "binpack_guard_cache_synced" in exposed
    for doc, heading in ((OPERATIONS_MD, "## Metrics and suggested alerts"), (WEBHOOK_MD, "## Logs and metrics")):
        table = {name for name in _first_cells(_section(doc, heading)) if name.startswith("binpack_guard_")}
        assert table == exposed, (heading, sorted(exposed ^ table))


def _every_prediction_field() -> set[str]:
    """Keys of the prediction annotation with every optional part present: no node fits (reasons and
    preemption), scheduling gates, out-of-tree score plugins, unmodelled in-tree plugins acting on the pod,
    Volcano node-order plugins, and, on a pod whose own annotations leave little room, the truncated scores;
    more feasible nodes than the scheduler looks for."""
    pod = {"metadata": {"name": "p"}, "spec": {"schedulingGates": [{"name": "g"}]}}
    unschedulable = Ranking(engine="k8s-fit", profile="default-scheduler", strategy="LeastAllocated",
                            plugin_weight=1, total_nodes=1, feasible_nodes=0, scores=(),
                            reason_counts={"Insufficient cpu": 1})
    preemption = preemption_summary(FastPreemption(needed=True))
    for_pod = {"filters": {"InterPodAffinity": "the pod has required pod anti-affinity terms"}}
    keys = set(json.loads(fit_annotations(pod, "default-scheduler", unschedulable, 10, preemption,
                                          {"TargetLoadPacking": 3}, ["nodeorder"], (),
                                          for_pod)[PREDICTION_ANNOTATION]))
    scores = tuple((f"node-{i:05d}", 50) for i in range(100))
    feasible = Ranking(engine="k8s-fit", profile="default-scheduler", strategy="LeastAllocated", plugin_weight=1,
                       total_nodes=200, feasible_nodes=200, scores=scores, best_node="node-00000", nodes_to_find=100)
    crowded = {"metadata": {"name": "p", "annotations": {"big": "x" * (256 * 1024 - 1500)}}, "spec": {}}
    keys |= set(json.loads(fit_annotations(crowded, "default-scheduler", feasible, 100)[PREDICTION_ANNOTATION]))
    volcano = Ranking(engine=ENGINE_VOLCANO, profile="volcano", strategy="binpack", plugin_weight=1, total_nodes=1,
                      feasible_nodes=0, scores=(), reason_counts={"Insufficient cpu": 1})
    keys |= set(json.loads(fit_annotations(pod, "volcano", volcano, 10, None, None, ["nodeorder"],
                                           ["usage"])[PREDICTION_ANNOTATION]))
    assert {"truncated", "gated", "preemption", "notModelledScorePlugins", "notModelledNodeOrderPlugins",
            "unschedulableReasons", "feasibleNodesToFind", "sampled", "message", "notModelledPredicatePlugins",
            "notModelledForPod"} <= keys
    return keys


def test_prediction_fields_are_the_documented_ones() -> None:
    fields = _every_prediction_field()
    table = _first_cells(_section(OPERATIONS_MD, "## Reading the annotations"))
    assert fields == table, f"docs/operations.md prediction table differs: {sorted(fields ^ table)}"
    row = next(line for line in WEBHOOK_MD.splitlines() if line.startswith("| `binpack-guard.io/prediction`"))
    described = set(re.findall(r"`([A-Za-z]+)`", row))
    assert fields <= described, f"docs/webhook.md prediction row lacks {sorted(fields - described)}"


def test_preemption_fields_are_the_documented_ones() -> None:
    summary = preemption_summary(FastPreemption(needed=True))
    assert summary is not None
    listed = re.search(r"`\{\"eligible\".*?\}`", WEBHOOK_MD, re.S)
    assert listed is not None
    assert set(summary) == set(re.findall(r'"([A-Za-z]+)"', listed.group(0)))


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every long option of a parser and of its sub-commands, --help left out."""
    options: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                options |= _option_strings(sub)
        options.update(o for o in action.option_strings if o.startswith("--") and o != "--help")
    return options


def test_every_webhook_and_kubectl_binpack_flag_is_documented() -> None:
    docs = "\n".join(p.read_text(encoding="utf-8") for p in (*DOCS.glob("*.md"), DOCS.parent / "README.md"))
    for parser in (webhook_cli.build_parser(), kubectl_binpack.build_parser()):
        missing = sorted(o for o in _option_strings(parser) if not re.search(rf"`{re.escape(o)}\b", docs))
        assert not missing, f"{parser.prog}: flags no doc names: {missing}"


def test_the_prediction_example_has_the_fields_of_a_real_prediction() -> None:
    """docs/webhook.md's example annotation carries every field a plain scored pod's prediction has."""
    example = re.search(r"^binpack-guard\.io/prediction: (\{.*\})$", WEBHOOK_MD, re.M)
    assert example is not None
    root = DOCS.parent
    patched = subprocess.run(
        [sys.executable, "-m", "webhook", "review", "--cluster-file", str(root / "examples/explain/docs-cluster.yaml"),
         "--patched", str(root / "examples/webhook/pod-review.json")],
        capture_output=True, text=True, check=True, timeout=120).stdout
    real = json.loads(json.loads(patched)["metadata"]["annotations"][PREDICTION_ANNOTATION])
    assert real["scored"] is True and "unschedulableReasons" not in real
    assert set(json.loads(example.group(1))) == set(real)


SCORING_MD = (DOCS / "scoring.md").read_text(encoding="utf-8")
# section 4 with its subsections, up to section 5
EXPLAIN_SECTION = SCORING_MD[SCORING_MD.index("\n## 4."):SCORING_MD.index("\n## 5.")]


def _explain_json(cluster: str, pod: str, *config: str) -> dict[str, object]:
    root = DOCS.parent
    args = [sys.executable, "-m", "linter", "explain", "--cluster", str(root / cluster), "--pod", str(root / pod),
            "-f", "json"] + [a for c in config for a in ("--config", str(root / c))]
    return dict(json.loads(subprocess.run(args, capture_output=True, text=True, check=True, timeout=120).stdout))


def test_explain_node_keys_are_the_documented_ones() -> None:
    """docs/scoring.md section 4 lists a kube-scheduler explanation's node keys in its ``{"engine", ...}``
    literal (the resources' own keys apart): the same set explain emits, every plugin's keys included."""
    literal = re.search(r'`\{"engine".*?"total"\}\]\}`', EXPLAIN_SECTION, re.S)
    assert literal is not None
    node_part = literal.group(0).split('"nodes": [{', 1)[1]
    node_part = re.sub(r'"resources": \[\{.*?\}\]', '"resources"', node_part, flags=re.S)
    documented = set(re.findall(r'"([A-Za-z]+)"', node_part))
    doc = _explain_json("examples/explain/docs-cluster.yaml", "examples/explain/docs-pod.yaml")
    nodes = doc["nodes"]
    assert isinstance(nodes, list) and nodes
    emitted = set(nodes[0])
    assert {"interPodAffinityRaw", "podTopologySpreadRaw", "nominatedPods"} <= emitted
    assert emitted == documented, sorted(emitted ^ documented)


def test_every_explain_document_key_is_named_in_section_4() -> None:
    """Each top-level key of a kube-scheduler and a Volcano explanation appears in docs/scoring.md section 4
    (quoted or in backticks), so a key added to the output cannot go undocumented."""
    named = set(re.findall(r'[`"]([A-Za-z]+)[`"]', EXPLAIN_SECTION))
    k8s = _explain_json("examples/explain/docs-cluster.yaml", "examples/explain/docs-pod.yaml")
    volcano = _explain_json("examples/explain/cce-cluster.yaml", "examples/explain/cce-pod.yaml",
                            "examples/explain/cce-volcano-scheduler.conf")
    assert {"interPodAffinityNeedsNamespaces", "podTopologySpreadNote", "preemptionLeavesOut"} <= set(k8s)
    missing = sorted((set(k8s) | set(volcano)) - named)
    assert not missing, f"docs/scoring.md section 4 does not name {missing}"


# kubectl's names for the kinds kubectl binpack lists (pdb is kubectl's short name)
_KUBECTL_NAMES = {"Node": "nodes", "Pod": "pods", "PriorityClass": "priorityclasses", "PodDisruptionBudget": "pdb",
                  "RuntimeClass": "runtimeclasses", "Service": "services", "ReplicaSet": "replicasets",
                  "StatefulSet": "statefulsets", "ReplicationController": "replicationcontrollers",
                  "Namespace": "namespaces"}


def test_explain_dump_commands_list_what_kubectl_binpack_lists() -> None:
    """The ``kubectl get`` that README, docs/preemption.md, docs/scoring.md and explain's --help give for STATE
    names exactly the kinds ``kubectl binpack explain`` lists for explain."""
    wanted = {_KUBECTL_NAMES[kind] for kind, _ in (*kubectl_binpack.KINDS, *kubectl_binpack.SPREADING_KINDS)}
    helps = subprocess.run([sys.executable, "-m", "linter", "explain", "--help"], capture_output=True, text=True,
                           check=True, timeout=60, env={"COLUMNS": "1000", "PATH": "/usr/bin:/bin",
                                                        "PYTHONPATH": str(DOCS.parent)}).stdout
    texts = {"README.md": (DOCS.parent / "README.md").read_text(encoding="utf-8"),
             "docs/preemption.md": (DOCS / "preemption.md").read_text(encoding="utf-8"),
             "docs/scoring.md": SCORING_MD, "explain --help": helps}
    for where, text in texts.items():
        commands = re.findall(r"kubectl get (nodes,pods,priorityclasses,pdb,runtimeclasses[a-z,]*) -A", text)
        assert commands, where
        for command in commands:
            assert set(command.split(",")) == wanted, (where, sorted(set(command.split(",")) ^ wanted))
