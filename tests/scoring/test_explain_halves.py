"""A big dump read by two processes gives exactly what one process gives, problems included.

``halves.MIN_BYTES`` is lowered so that small generated dumps (benchmarks/dumpgen.py, seeded) take
the two-process path; the reference is the same loader with the limit out of reach. Problems are
put in either part, in both, and where the cut guess is wrong, and the messages must be the same.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from linter.explain import halves
from linter.explain.dump import ClusterDump, DumpBuilder
from linter.explain.fields import spec_for_kind
from linter.explain.inputs import ExplainInputError, load_cluster, load_cluster_objects
from linter.explain.objects import ClusterObjects

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import dumpgen

NODES, PODS_PER_NODE = 30, 8


def _items(as_json: bool, seed: int = 1) -> list[str]:
    render = dumpgen._json_item if as_json else dumpgen._yaml_item
    return list(dumpgen.rendered_items(render, NODES, PODS_PER_NODE, seed, workloads=40))


def _write(path: Path, items: list[str], as_json: bool, tail: str = "") -> Path:
    out = io.StringIO()
    (dumpgen.write_json if as_json else dumpgen.write_yaml)(out, iter(items))
    path.write_text(out.getvalue() + tail)
    return path


def _render(obj: dict[str, Any], as_json: bool) -> str:
    return (dumpgen._json_item if as_json else dumpgen._yaml_item)(obj)


def _facts(dump: ClusterDump) -> tuple[Any, ...]:
    totals = [(name, t.pod_count, list(t.fit_requested.items()), list(t.requested.items()),
               list(t.volcano_used.items())) for name, t in dump.totals.items()]
    return dump.nodes, totals, dump.priority_classes, dump.pdbs


def _objects(objs: ClusterObjects) -> tuple[Any, ...]:
    return objs.nodes, objs.pods, objs.priority_classes, objs.pdbs


def _both(monkeypatch: pytest.MonkeyPatch, load: Callable[[str], Any], path: Path) -> tuple[Any, Any]:
    """(one process, two processes): the loaded value, or the error message."""
    def run() -> Any:
        try:
            return load(str(path))
        except ExplainInputError as exc:
            return f"error: {exc}"

    monkeypatch.setattr(halves, "MIN_BYTES", 1 << 62)
    one = run()
    monkeypatch.setattr(halves, "MIN_BYTES", 0)
    return one, run()


def _taken(path: Path, as_json: bool) -> bool:
    first = "{" if as_json else "a"
    return halves.read_in_halves(str(path), first, lambda d: DumpBuilder(str(path), deferred=d),
                                 spec_for_kind) is not None


@pytest.fixture(autouse=True)
def _small_cut(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(halves, "MIN_BYTES", 0)
    yield


@pytest.mark.parametrize("as_json", [False, True], ids=["yaml", "json"])
@pytest.mark.parametrize("seed", [1, 2])
def test_two_processes_read_what_one_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           as_json: bool, seed: int) -> None:
    path = _write(tmp_path / "dump", _items(as_json, seed), as_json)
    assert _taken(path, as_json)
    one, two = _both(monkeypatch, load_cluster, path)
    assert isinstance(one, ClusterDump) and isinstance(two, ClusterDump)
    assert _facts(two) == _facts(one)
    assert len(one.nodes) == NODES and sum(t.pod_count for t in one.totals.values()) > NODES * PODS_PER_NODE // 2
    one, two = _both(monkeypatch, load_cluster_objects, path)
    assert _objects(two) == _objects(one) and len(one.pods) == NODES * PODS_PER_NODE


def _nameless(i: int) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "default", "uid": f"u{i}"},
            "spec": {"nodeName": "node-00001", "containers": [{"name": "c"}]}}


@pytest.mark.parametrize("as_json", [False, True], ids=["yaml", "json"])
@pytest.mark.parametrize("where", [[5], [150], [NODES * PODS_PER_NODE - 3], [20, NODES * PODS_PER_NODE - 3]],
                         ids=["first-part", "middle", "second-part", "both-parts"])
def test_a_problem_in_either_part_gives_the_one_process_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                as_json: bool, where: list[int]) -> None:
    items = _items(as_json)
    for index in where:
        items[NODES + index] = _render(_nameless(index), as_json)
    path = _write(tmp_path / "dump", items, as_json)
    for load in (load_cluster, load_cluster_objects):
        one, two = _both(monkeypatch, load, path)
        assert one == two
        assert one == f"error: STATE {path}: Pod at document 1.items[{NODES + where[0]}]: metadata.name is missing"


def test_a_cut_outside_items_falls_back_to_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    extra = "extra:\n" + "".join(f"- entry {i}\n" for i in range(40_000))  # a second column-0 sequence
    path = _write(tmp_path / "dump.yaml", _items(False), False, extra)
    assert not _taken(path, False)
    one, two = _both(monkeypatch, load_cluster, path)
    assert isinstance(one, ClusterDump) and _facts(two) == _facts(one)


def test_json_items_without_kind_fall_back_to_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items = [text.replace('"kind": "Pod",', "", 1) for text in _items(True) if '"kind": "Pod"' in text]
    path = tmp_path / "pods.json"
    _write(path, items, True)
    path.write_text(path.read_text().replace('"kind": "List"', '"kind": "PodList"'))
    assert not _taken(path, True)
    one, two = _both(monkeypatch, load_cluster_objects, path)
    assert one == two and str(one).startswith(f"error: STATE {path}: no Node objects found")


class _DiesInTheChild(DumpBuilder):
    def add(self, obj: Any, where: str, shape_key: Any = None) -> None:
        if self.counted is not None:
            os._exit(3)  # killed mid-read (out of memory, a signal)
        super().add(obj, where, shape_key)


@pytest.mark.parametrize("as_json", [False, True], ids=["yaml", "json"])
def test_a_dead_child_means_one_process(tmp_path: Path, as_json: bool) -> None:
    path = _write(tmp_path / "dump", _items(as_json), as_json)
    first = "{" if as_json else "a"
    assert halves.read_in_halves(str(path), first, lambda d: _DiesInTheChild(str(path), deferred=d),
                                 spec_for_kind) is None


def test_no_child_can_start_means_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing.process

    def refuse(self: object) -> None:
        raise OSError(11, "Resource temporarily unavailable")  # a process limit

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refuse)
    path = _write(tmp_path / "dump", _items(False), False)
    assert not _taken(path, False)
    one, two = _both(monkeypatch, load_cluster, path)
    assert isinstance(one, ClusterDump) and _facts(two) == _facts(one)


def test_a_block_scalar_ending_the_first_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each node ends with a label in a block scalar, so the cut falls right after one. The first part ends
    # before the newline that ends that scalar's line; without it the label read "zone-3" where one
    # process reads "zone-3\n" ("|" keeps the final line break).
    node = ("- apiVersion: v1\n  kind: Node\n  status:\n    allocatable:\n      cpu: '4'\n      pods: '110'\n"
            "  metadata:\n    name: node-{0}\n    labels:\n      zone: |\n        zone-{0}\n")
    nodes = "".join(node.format(i) for i in range(40))
    path = tmp_path / "dump.yaml"
    path.write_text(f"apiVersion: v1\nitems:\n{nodes}kind: List\nmetadata:\n  resourceVersion: ''\n")
    assert _taken(path, False)
    one, two = _both(monkeypatch, load_cluster, path)
    assert isinstance(one, ClusterDump) and isinstance(two, ClusterDump)
    assert [node["metadata"]["labels"]["zone"] for node in one.nodes] == [f"zone-{i}\n" for i in range(40)]
    assert _facts(two) == _facts(one)
