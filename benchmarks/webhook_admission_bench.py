"""End-to-end admission latency inside one worker: HTTP body in, AdmissionReview out (no TLS, no network).

Run:  python benchmarks/webhook_admission_bench.py [--nodes 5000] [--runs 500] [--top 10]

The Flask app is built with ``create_app`` over a ``StaticClusterView`` of N synthetic
nodes (a few instance types, 5% GPU) and called through the Flask test client, so
the figures include decode, priority resolution, ranking every node, annotation
building, encode and the JSON log line, but not gunicorn, TLS or the network. Every
figure printed is a median (with p90) of ``time.perf_counter_ns`` over ``--runs`` calls.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

# This checkout's packages, not the installed ones (an editable install may point at another tree).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.server.app import create_app
from webhook.settings import Settings

INSTANCE_TYPES = (("4", "16Gi"), ("8", "32Gi"), ("16", "64Gi"), ("32", "128Gi"))
BUILTIN_CLASSES = (
    {"metadata": {"name": "system-node-critical"}, "value": 2000001000},
    {"metadata": {"name": "system-cluster-critical"}, "value": 2000000000},
)


def _nodes(count: int) -> list[dict[str, Any]]:
    nodes = []
    for i in range(count):
        cpu, memory = INSTANCE_TYPES[i % len(INSTANCE_TYPES)]
        allocatable = {"cpu": cpu, "memory": memory, "pods": "110"}
        if i % 20 == 0:
            allocatable["nvidia.com/gpu"] = "8"
        nodes.append({"metadata": {"name": f"node-{i:05d}"}, "status": {"allocatable": allocatable}})
    return nodes


def _review(operation: str, pod: dict[str, Any]) -> bytes:
    request = {
        "uid": str(uuid.uuid4()),
        "kind": {"group": "", "version": "v1", "kind": "Pod"},
        "operation": operation,
        "name": pod["metadata"]["name"],
        "namespace": "default",
        "object": pod,
        "oldObject": pod if operation == "UPDATE" else None,
        "dryRun": False,
    }
    return json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request}).encode()


def _pod(cpu: str) -> dict[str, Any]:
    container = {"name": "app", "image": "pause", "resources": {"requests": {"cpu": cpu, "memory": "512Mi"}}}
    return {"metadata": {"name": "bench", "namespace": "default"}, "spec": {"containers": [container]}}


def _measure(client: Any, path: str, bodies: list[bytes]) -> list[float]:
    out = []
    for body in bodies:
        start = time.perf_counter_ns()
        reply = client.post(path, data=body, content_type="application/json")
        out.append((time.perf_counter_ns() - start) / 1e6)
        assert reply.status_code == 200
    return out


def _report(label: str, samples: list[float]) -> None:
    p90 = statistics.quantiles(samples, n=10)[-1]
    print(f"{label:<48} median {statistics.median(samples):8.3f} ms   p90 {p90:8.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    logging.getLogger("webhook.requests").setLevel(logging.WARNING)
    view = StaticClusterView(nodes=_nodes(args.nodes), priority_classes=BUILTIN_CLASSES)
    app = create_app(Settings(top=args.top), view, scheduler_models=SchedulerModels.static())
    client = app.test_client()
    warm = [_review("CREATE", _pod("500m")) for _ in range(args.runs)]
    cold = [_review("CREATE", _pod(f"{100 + i}m")) for i in range(args.runs)]
    update = [_review("UPDATE", _pod("500m")) for _ in range(args.runs)]
    _measure(client, "/mutate/pods", warm[:20])  # warm-up: imports, first-call caches
    print(f"nodes={args.nodes} runs={args.runs} top={args.top}")
    _report("pod CREATE, repeated request shape", _measure(client, "/mutate/pods", warm))
    _report("pod CREATE, new request shape each call", _measure(client, "/mutate/pods", cold))
    _report("pod UPDATE (allowed untouched)", _measure(client, "/mutate/pods", update))


if __name__ == "__main__":
    main()
