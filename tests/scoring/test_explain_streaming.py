"""The streamed STATE readers give exactly what the plain whole-file load gave.

The reference is the load explain used before streaming: ``yaml.safe_load_all`` (or
``json.loads``) of the whole file, every object flattened and defaulted as the API server stores it,
node views built pod by pod by the scalar model. The same generated clusters (benchmarks/dumpgen.py,
seeded) are written as kubectl YAML, kubectl JSON, and a multi-document stream (which the kubectl reader hands to the
general reader), and every view must be equal, field by field, in order.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter import textfile
from linter.cli import main
from linter.explain.compute import build_views
from linter.explain.dump import flatten
from linter.explain.fields import NODE_FIELDS, PDB_FIELDS, PREEMPTION_POD_FIELDS, PRIORITY_CLASS_FIELDS, prune
from linter.explain.inputs import ExplainInputError, load_cluster, load_cluster_objects
from linter.explain.objects import ClusterObjects
from linter.scoring.apidefaults import stored_node, stored_pod
from linter.scoring.nodes import NodeView

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import dumpgen


def _plain(path: Path) -> list[NodeView]:
    text = path.read_text()
    docs = [json.loads(text)] if text.lstrip().startswith(("{", "[")) else \
        [d for d in yaml.safe_load_all(text) if d is not None]
    nodes, pods = [], []
    for i, doc in enumerate(docs):
        for obj, _ in flatten(doc, str(path), f"document {i + 1}"):
            if obj.get("kind") == "Node":
                nodes.append(stored_node(obj))
            elif obj.get("kind") == "Pod":
                pods.append(stored_pod(obj))
    return build_views(nodes, pods)


def _summary(views: list[NodeView]) -> list[tuple[Any, ...]]:
    """Everything scoring reads from a view, dict order included."""
    return [(v.name, v.pod_count, list(v.fit_requested.items()), list(v.requested.items()),
             list(v.volcano_used.items()), list(v.allocatable.items()), list(v.volcano_allocatable.items()))
            for v in views]


def _node_fields(views: list[NodeView]) -> list[tuple[Any, ...]]:
    """The node fields feasibility reads."""
    out = []
    for v in views:
        meta, spec = v.node.get("metadata", {}), v.node.get("spec") or {}
        out.append((meta.get("name"), meta.get("labels"), spec.get("taints"), spec.get("unschedulable"),
                    v.node.get("status", {}).get("allocatable")))
    return out


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("dumps")
    out = {}
    for seed in (1, 2):
        y, j = root / f"c{seed}.yaml", root / f"c{seed}.json"
        dumpgen.write_dump(str(y), 12, 6, seed=seed)
        dumpgen.write_dump(str(j), 12, 6, seed=seed, as_json=True)
        out[f"yaml{seed}"], out[f"json{seed}"] = y, j
        objs = yaml.safe_load(y.read_text())["items"]
        stream = root / f"c{seed}-stream.yaml"  # several documents: the general reader
        stream.write_text("".join("---\n" + yaml.safe_dump(o, sort_keys=False) for o in objs))
        out[f"stream{seed}"] = stream
    return out


@pytest.mark.parametrize("name", ["yaml1", "json1", "stream1", "yaml2", "json2", "stream2"])
def test_streamed_views_equal_the_plain_load(dumps: dict[str, Path], name: str) -> None:
    path = dumps[name]
    streamed = load_cluster(str(path)).views()
    plain = _plain(path)
    assert len(plain) == 12
    assert _summary(streamed) == _summary(plain)
    assert _node_fields(streamed) == _node_fields(plain)


@pytest.mark.parametrize("name", ["yaml1", "json1", "stream1"])
def test_priority_classes_and_pdbs_are_read_by_every_reader(dumps: dict[str, Path], name: str) -> None:
    path = dumps[name]
    text = path.read_text()
    docs = [json.loads(text)] if text.lstrip().startswith("{") else [d for d in yaml.safe_load_all(text) if d]
    objs = [o for i, d in enumerate(docs) for o, _ in flatten(d, str(path), f"document {i + 1}")]
    streamed = load_cluster(str(path))
    classes = [o for o in objs if o.get("kind") == "PriorityClass"]
    pdbs = [o for o in objs if o.get("kind") == "PodDisruptionBudget"]
    assert len(classes) == 3 and len(pdbs) == 30
    assert streamed.priority_classes == [prune(o, PRIORITY_CLASS_FIELDS) for o in classes]
    assert streamed.pdbs == [prune(o, PDB_FIELDS) for o in pdbs]
    whole = load_cluster_objects(str(path))  # the second read, for preemption: what that model reads, same order
    assert whole.pods == [prune(o, PREEMPTION_POD_FIELDS) for o in objs if o.get("kind") == "Pod"]
    def node_facts(node: dict[str, Any]) -> tuple[Any, ...]:  # a kept but emptied "spec:" may read as None
        meta, spec, status = (node.get(k) or {} for k in ("metadata", "spec", "status"))
        return (meta.get("name"), meta.get("labels"), spec.get("taints"), spec.get("unschedulable"),
                status.get("allocatable"))

    assert [node_facts(n) for n in whole.nodes] == \
        [node_facts(prune(o, NODE_FIELDS)) for o in objs if o.get("kind") == "Node"]
    assert whole.priority_classes == streamed.priority_classes and whole.pdbs == streamed.pdbs
    assert all(p["metadata"].get("labels") and p["status"].get("startTime") for p in whole.pods)


def test_the_whole_objects_are_read_only_when_a_pod_fits_nowhere(dumps: dict[str, Path]) -> None:
    from linter.explain.compute import explain_dump
    from linter.model import default_kube_scheduler_model

    dump = load_cluster(str(dumps["yaml1"]))
    reads: list[int] = []

    def objects() -> ClusterObjects:
        reads.append(1)
        return load_cluster_objects(str(dumps["yaml1"]))

    small = {"kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
             "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "10m"}}}]}}
    doc = explain_dump(default_kube_scheduler_model(), dump, small, None, objects)
    assert doc["preemption"] is None and reads == []
    huge = {**small, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "100000"}}}]}}
    doc = explain_dump(default_kube_scheduler_model(), dump, huge, None, objects)
    assert doc["preemption"] is not None and reads == [1]
    assert doc["preemption"]["eligible"] is True and doc["preemption"]["nominatedNode"] is None


def test_kubectl_layouts_take_the_fast_readers(dumps: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    import linter.explain.inputs as inputs

    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("the general reader was used")

    monkeypatch.setattr(inputs, "read_yaml_stream", refuse)
    assert len(load_cluster(str(dumps["yaml1"])).views()) == 12
    assert len(load_cluster(str(dumps["json1"])).views()) == 12
    with pytest.raises(AssertionError):
        load_cluster(str(dumps["stream1"]))


ODD_YAML = """\
apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    labels: {zone: a, "on": "yes"}
    name: n1
  spec:
    taints:
    - {effect: NoSchedule, key: k}
  status:
    allocatable:
      cpu: "4"
      memory: 8Gi
      pods: 110
- kind: Pod
  apiVersion: v1
  metadata: {name: p0, namespace: ns}
  spec:
    nodeName: n1
    containers:
    - name: a
      resources: {requests: {cpu: 1}}
- apiVersion: v1
  kind: Pod
  metadata:
    name: 'p''1'
    namespace: "ns"
  spec:
    containers:
    -
      resources:
        requests:
          cpu: 250m
          memory: 64Mi
    - image: x
      resources:
        limits:
          cpu: "2"
        requests: {memory: 1Gi}
    initContainers:
    - name: side
      restartPolicy: Always
      resources:
        requests:
          cpu: 100m
    nodeName: n1
    overhead:
      cpu: 10m
  status:
    message: >-
      folded
      text
    phase: Running
- apiVersion: v1
  kind: Service
  metadata:
    name: s
kind: List
metadata:
  resourceVersion: ""
"""


ANCHORED = ODD_YAML.replace("  kind: Pod\n", "  kind: Pod\n  x: &a 1\n", 1)


@pytest.mark.parametrize("text", [ODD_YAML, "---\n" + ODD_YAML, ANCHORED],
                         ids=["kubectl-odd", "document-marker", "anchor"])
def test_odd_but_valid_layouts_match_the_plain_load(tmp_path: Path, text: str) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(text)
    streamed, plain = load_cluster(str(path)).views(), _plain(path)
    assert _summary(streamed) == _summary(plain)
    assert _node_fields(streamed) == _node_fields(plain)


CLOUD_NODE = """\
apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
  spec:
    podCIDR: 10.244.1.0/24
    providerID: aws:///eu-west-1a/i-0abc
  status:
    allocatable:
      cpu: "2"
kind: List
metadata:
  resourceVersion: ""
"""


def test_a_block_with_no_field_explain_reads_is_an_empty_mapping(tmp_path: Path) -> None:
    # kubectl's layout (fast reader) and the same text after "---" (general reader) give one model: the
    # spec of a cloud Node, whose fields are all dropped, is {} in both (the fast reader gave null)
    fast, general = tmp_path / "fast.yaml", tmp_path / "general.yaml"
    fast.write_text(CLOUD_NODE)
    general.write_text("---\n" + CLOUD_NODE)
    assert load_cluster(str(fast)).nodes == load_cluster(str(general)).nodes
    assert load_cluster(str(fast)).nodes[0]["spec"] == {}
    assert load_cluster_objects(str(fast)) == load_cluster_objects(str(general))


PENDING = "kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n"


def _explain(tmp_path: Path, state: str, pod: str = PENDING) -> tuple[int, str]:
    (tmp_path / "state.yaml").write_text(state)
    (tmp_path / "pod.yaml").write_text(pod)
    import io

    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(tmp_path / "state.yaml"), "--pod", str(tmp_path / "pod.yaml")],
                out=out, err=err)
    return code, err.getvalue()


def test_an_alias_bomb_is_refused_at_once(tmp_path: Path) -> None:
    bomb = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(9))
    assert len(bomb) < 700
    code, err = _explain(tmp_path, bomb)
    assert code == 2 and "alias bomb" in err and err.count("\n") == 1
    code, err = _explain(tmp_path, "kind: Node\nmetadata: {name: n}\n", pod=bomb)
    assert code == 2 and "alias bomb" in err and "POD" in err


DEEP_BLOCK = "a:\n" + "".join(" " * i + "- \n" for i in range(1, 3000))


@pytest.mark.parametrize("deep", ["[" * 100_000 + "]" * 100_000, DEEP_BLOCK])
def test_very_deep_input_is_an_error_not_a_traceback(tmp_path: Path, deep: str) -> None:
    code, err = _explain(tmp_path, deep)
    assert code == 2 and "nested deeper than 200 levels" in err and "Traceback" not in err
    code, err = _explain(tmp_path, "kind: Node\nmetadata: {name: n}\n", pod=deep)
    assert code == 2 and "nested deeper than 200 levels" in err and "POD" in err


def test_negative_quantities_are_rejected(tmp_path: Path) -> None:
    node = "kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: '4', memory: 4Gi, pods: '10'}}\n"
    bound = ("---\nkind: Pod\nmetadata: {name: b}\nspec:\n  nodeName: n\n"
             "  containers: [{resources: {requests: {cpu: '-1'}}}]\n")
    code, err = _explain(tmp_path, node + bound)
    assert code == 2 and "spec.containers[0].resources.requests.cpu: must be greater than or equal to 0" in err
    code, err = _explain(tmp_path, node, pod="kind: Pod\nmetadata: {name: p}\nspec:\n  overhead: {memory: -1Gi}\n"
                                            "  containers: [{name: c}]\n")
    assert code == 2 and "POD" in err and "spec.overhead.memory: must be greater than or equal to 0" in err
    code, err = _explain(tmp_path, node.replace("cpu: '4'", "cpu: '-4'"))
    assert code == 2 and "status.allocatable.cpu: must be greater than or equal to 0" in err


def test_a_syntax_error_in_a_field_explain_reads_names_its_line(tmp_path: Path) -> None:
    """The kubectl reader hands such a file to the general reader, which reports where it is."""
    path = tmp_path / "big.yaml"
    dumpgen.write_dump(str(path), 3, 2)
    text = path.read_text().replace("phase: Running", "phase: [Running", 1)
    path.write_text(text)
    with pytest.raises(ExplainInputError, match=r"not valid YAML/JSON \(line \d+, column \d+\)"):
        load_cluster(str(path))


def test_a_control_character_in_a_streamed_dump_names_its_line_and_column(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader refuses it mid-stream; the file is read again to say where, in small chunks here so that
    a CR LF pair falls across two of them and still counts as one line break."""
    monkeypatch.setattr(textfile.TextStream, "CHUNK", 7)
    path = tmp_path / "state.yaml"
    path.write_bytes(b"apiVersion: v1\r\nkind: List\r\nitems:\r\n- kind: Node\r\n  metadata: {name: \"n\x01\"}\r\n")
    with pytest.raises(ExplainInputError) as caught:
        load_cluster(str(path))
    assert str(caught.value) == (f"STATE {path}: not valid YAML/JSON (line 5, column 22): unacceptable character "
                                 "#x0001: control characters are not allowed")


def _repeated_shapes_dump(path: Path) -> None:
    """Pods that share their kept text with earlier ones (the YAML reader's shortcut for known shapes), in
    every phase, bound and not, with plain and quoted names."""
    lines = ["apiVersion: v1", "items:"]
    for n in range(2):
        lines += ["- apiVersion: v1", "  kind: Node", "  metadata:", f"    name: n{n}", "  status:",
                  "    allocatable: {cpu: '8', memory: 16Gi, pods: '110'}"]
    phases = ["Running", "Succeeded", "Failed", "Pending", "Unknown"]
    for i in range(40):
        node = ["", "    nodeName: n0", "    nodeName: n1", "    nodeName: ''", "    nodeName: 'n1'"][i % 5]
        name = f"p{i}" if i % 3 else f"'p{i}'"
        lines += ["- apiVersion: v1", "  kind: Pod", "  metadata:", f"    name: {name}", "    namespace: ns",
                  "  spec:", "    containers:", "    - name: c", "      resources:", "        requests:",
                  f"          cpu: {100 * (i % 2 + 1)}m"]
        lines += [node] if node else []
        lines += ["  status:", f"    phase: {phases[i % len(phases)]}"]
    lines += ["kind: List", "metadata: {}"]
    path.write_text("\n".join(lines) + "\n")


def test_pods_of_a_known_shape_count_as_the_plain_load_counts_them(tmp_path: Path) -> None:
    path = tmp_path / "shapes.yaml"
    _repeated_shapes_dump(path)
    assert _summary(load_cluster(str(path)).views()) == _summary(_plain(path))
