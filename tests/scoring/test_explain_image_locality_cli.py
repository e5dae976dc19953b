"""``binpack-lint explain`` as a real process on a dump whose Nodes carry ``status.images`` (kubectl -o yaml and
-o json): ImageLocality's per-node score, inputs and weight, its text, and a bad ``sizeBytes``.

Four nodes of 4 cpu / 8Gi; node-0 already runs a 1 cpu / 1Gi pod. node-0 and node-1 hold the pod's image
(900 MiB, two names). Of 4 nodes: int(943718400 * 2/4) = 471859200 ->
floor(100 * (471859200 - 24117248) / (1048576000 - 24117248)) = 43 (x weight 1). Without images node-0
(Fit 68) would rank last; with them it beats node-2 and node-3 (Fit 87): 68 + 75 + 300 + 43 = 486 > 462.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

EXPLAIN = [sys.executable, "-m", "linter", "explain"]
MIB = 1024 * 1024
IMAGE = "registry.example.com/ml/trainer:2.1"


def _objects(size: Any = 900 * MIB) -> list[dict[str, Any]]:
    nodes = []
    for i in range(4):
        images = [{"names": ["registry.k8s.io/pause:3.10"], "sizeBytes": 320000}]
        if i < 2:
            images.append({"names": [IMAGE, "registry.example.com/ml/trainer@sha256:ab"], "sizeBytes": size})
        nodes.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{i}"},
                      "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}, "images": images}})
    busy = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "busy", "namespace": "default"},
            "spec": {"nodeName": "node-0", "containers": [
                {"name": "c", "image": "x", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
            "status": {"phase": "Running"}}
    return [*nodes, busy]


def _files(tmp: Path, fmt: str, size: Any = 900 * MIB) -> tuple[Path, Path]:
    listed = {"apiVersion": "v1", "kind": "List", "items": _objects(size)}
    cluster = tmp / f"cluster.{fmt}"
    cluster.write_text(json.dumps(listed, indent=4) if fmt == "json" else yaml.safe_dump(listed))
    pod = tmp / "pod.yaml"
    pod.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
                                   "spec": {"containers": [{"name": "t", "image": IMAGE, "resources": {
                                       "requests": {"cpu": "500m", "memory": "1Gi"}}}]}}))
    return cluster, pod


def _run(*args: str | Path, code: int = 0) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*EXPLAIN, *map(str, args)], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == code, proc.stderr
    return proc


def test_json_from_yaml_and_json_dumps(tmp_path: Path) -> None:
    docs = []
    for fmt in ("yaml", "json"):
        cluster, pod = _files(tmp_path, fmt)
        docs.append(json.loads(_run("--cluster", cluster, "--pod", pod, "-f", "json").stdout))
    assert docs[0] == docs[1]
    doc = docs[0]
    assert (doc["imageLocalityWeight"], doc["imageLocalityNodes"], doc["imageLocalityContainers"]) == (1, 4, 1)
    got = {n["name"]: (n["imageLocalityScore"], n["imageLocalitySum"], n["total"]) for n in doc["nodes"]}
    assert got == {"node-1": (43, 471859200, 505), "node-0": (43, 471859200, 486),
                   "node-2": (0, 0, 462), "node-3": (0, 0, 462)}
    assert [n["name"] for n in doc["nodes"]] == ["node-1", "node-0", "node-2", "node-3"]
    assert doc["nodes"][0]["imageLocalityImages"] == [
        {"name": IMAGE, "sizeBytes": 900 * MIB, "nodes": 2, "scaled": 471859200}]


def test_text_shows_the_header_column_and_arithmetic(tmp_path: Path) -> None:
    cluster, pod = _files(tmp_path, "yaml")
    out = _run("--cluster", cluster, "--pod", pod).stdout
    assert ("  ImageLocality, weight 1: floor(100 * (sum - 23Mi) / (1 x 1000Mi - 23Mi)), sum of size * holders / "
            "4 nodes per pod image on the node, kept within 23Mi .. 1 x 1000Mi\n") in out
    header = next(line for line in out.splitlines() if line.lstrip().startswith("#"))
    assert header.split()[-2:] == ["images", "total"]
    assert f"    ImageLocality: {IMAGE} 943718400 * 2/4 = 471859200\n" in out
    assert "      = 100 * (471859200 - 24117248) / (1048576000 - 24117248) = 43; * weight 1\n" in out


def test_text_says_nothing_when_no_node_holds_the_pods_images(tmp_path: Path) -> None:
    cluster, pod = _files(tmp_path, "yaml")
    pod.write_text(pod.read_text().replace(IMAGE, "other:1"))
    out = _run("--cluster", cluster, "--pod", pod).stdout
    assert "ImageLocality" not in out and " images " not in out


def test_a_size_that_is_no_integer_is_a_one_line_error(tmp_path: Path) -> None:
    cluster, pod = _files(tmp_path, "yaml", size="900Mi")
    proc = _run("--cluster", cluster, "--pod", pod, code=2)
    assert "status.images[1].sizeBytes must be an int64 integer (got a string)" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize("size", [2**63, -(2**63) - 1, 10**40])
@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_size_outside_int64_is_a_one_line_error(tmp_path: Path, fmt: str, size: int) -> None:
    """The API server's decoder refuses a JSON number that does not fit the int64 field, so no stored Node
    has one (the webhook's cache refuses it too: linter.scoring.cluster.images.parse_node_images)."""
    cluster, pod = _files(tmp_path, fmt, size)
    proc = _run("--cluster", cluster, "--pod", pod, code=2)
    assert proc.stderr == (f"binpack-lint explain: error: STATE {cluster}: Node node-0: "
                           f"status.images[1].sizeBytes must be an int64 integer (got {size})\n")


def test_the_int64_bounds_and_negative_sizes_are_read_alike_from_yaml_and_json(tmp_path: Path) -> None:
    """Node validation does not look at status.images, so a negative sizeBytes is stored, and ImageLocality
    adds it as it is: here int(-943718400 * 2/4) on node-0 and node-1, below the floor, so 0."""
    for size, expected in ((2**63 - 1, 100), (-(2**63), 0), (-900 * MIB, 0)):
        docs = []
        for fmt in ("yaml", "json"):
            cluster, pod = _files(tmp_path, fmt, size)
            docs.append(json.loads(_run("--cluster", cluster, "--pod", pod, "-f", "json").stdout))
        assert docs[0] == docs[1]
        got = {n["name"]: (n["imageLocalityScore"], n["imageLocalitySum"]) for n in docs[0]["nodes"]}
        half = int(float(size) * 0.5)
        assert got == {"node-0": (expected, half), "node-1": (expected, half), "node-2": (0, 0), "node-3": (0, 0)}


def test_the_dump_keeps_only_the_pods_image_names_and_scores_the_same(tmp_path: Path) -> None:
    from linter.explain.inputs import load_cluster
    from linter.scoring.imagelocality import ImageStates, pod_images

    cluster, pod_file = _files(tmp_path, "yaml")
    pod = yaml.safe_load(pod_file.read_text())
    wanted = frozenset(pod_images(pod).refs)
    full, kept = load_cluster(str(cluster)).nodes, load_cluster(str(cluster), wanted).nodes
    assert [n["status"]["images"] for n in kept] == [[{"names": [IMAGE], "sizeBytes": 900 * MIB}]] * 2 + [[]] * 2
    assert len(full[0]["status"]["images"]) == 2
    states = [ImageStates((n["metadata"]["name"], n) for n in nodes) for nodes in (full, kept)]
    for name in ("node-0", "node-1", "node-2", "node-3"):
        assert states[0].score(pod_images(pod), name) == states[1].score(pod_images(pod), name)
