"""Render and lint charts/binpack-guard with Helm's own engine (helm-python-sdk embeds the Helm v4 Go library).

No cluster is involved: ``Chart.render`` is ``helm template``, ``helm_python.lint`` is ``helm lint``; both apply
values.schema.json exactly as ``helm install`` does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import helm_python as helm
import pytest
import yaml

CHART_DIR = Path(__file__).resolve().parents[2] / "charts" / "binpack-guard"

KUBE_CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: MostAllocated
"""
SP_CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    plugins:
      multiPoint:
        enabled:
          - name: PodState
"""
VOLCANO_CONFIG = """actions: "enqueue, allocate, backfill"
tiers:
  - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
"""

# The main value sets: every render/lint test that takes ``scenario_name`` runs once per entry.
SCENARIOS: dict[str, dict[str, Any]] = {
    "defaults": {},
    "cert-manager": {"certManager": {"enabled": True}},
    "inline-config": {"scoring": {"kubeScheduler": {"inline": KUBE_CONFIG}, "volcano": {"inline": VOLCANO_CONFIG}}},
    "existing-configmap": {
        "scoring": {
            "kubeScheduler": {"existingConfigMap": {"name": "my-scheduler", "key": "config.yaml"}},
            "volcano": {"existingConfigMap": {"name": "volcano-copy", "key": "volcano-scheduler.conf"}},
        }
    },
    "scheduler-plugins": {"scoring": {"kubeScheduler": {"build": "scheduler-plugins", "inline": SP_CONFIG}}},
    "service-monitor": {"metrics": {"from": [{"namespaceSelector": {"matchLabels": {"name": "monitoring"}}}],
                                    "serviceMonitor": {"enabled": True, "labels": {"release": "prometheus"}}}},
    "metrics-port-off": {"metrics": {"port": 0}},
    "pod-webhook-off": {"webhooks": {"pods": {"enabled": False}}},
    "priority-plugin-off": {"webhooks": {"pods": {"priorityPluginOff": True}},
                            "apiserverClientAuth": {"caSecret": "apiserver-client-ca", "clientName": "kube-apiserver",
                                                    "required": False}},
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "scenario_name" in metafunc.fixturenames:
        metafunc.parametrize("scenario_name", sorted(SCENARIOS))


@pytest.fixture(scope="session")
def scenarios() -> dict[str, dict[str, Any]]:
    return SCENARIOS


@dataclass(frozen=True)
class Manifests:
    """The parsed objects of one render, plus the raw text per template."""

    objects: list[dict[str, Any]]
    text: dict[str, str]
    namespace: str

    def all(self, kind: str) -> list[dict[str, Any]]:
        return [o for o in self.objects if o["kind"] == kind]

    def one(self, kind: str, name: str | None = None) -> dict[str, Any]:
        found = [o for o in self.all(kind) if name is None or o["metadata"]["name"] == name]
        assert len(found) == 1, f"expected one {kind} {name or ''}, found {[o['metadata']['name'] for o in found]}"
        return found[0]

    def names(self, kind: str) -> set[str]:
        return {o["metadata"]["name"] for o in self.all(kind)}


@pytest.fixture(scope="session")
def chart() -> Iterator[helm.Chart]:
    with helm.Chart.load(CHART_DIR) as loaded:
        yield loaded


def render_chart(chart: helm.Chart, values: dict[str, Any], release: str, namespace: str) -> Manifests:
    """``helm template <release> --namespace <namespace>`` with ``values``, parsed."""
    text = chart.render(values, name=release, namespace=namespace, is_install=True)
    objects: list[dict[str, Any]] = []
    for path, body in sorted(text.items()):
        if path.endswith("NOTES.txt"):
            continue
        for doc in yaml.safe_load_all(body):
            if doc is None:
                continue
            assert isinstance(doc, dict) and {"apiVersion", "kind", "metadata"} <= doc.keys(), path
            objects.append(doc)
    return Manifests(objects, text, namespace)


def lint_chart(values: dict[str, Any], namespace: str) -> dict[str, Any]:
    """``helm lint --strict`` with ``values``: the report as data."""
    report: dict[str, Any] = helm.lint(CHART_DIR, values, strict=True, namespace=namespace)
    return report


@pytest.fixture(scope="session")
def render(chart: helm.Chart) -> Callable[..., Manifests]:
    return functools.partial(render_chart, chart)


@pytest.fixture(scope="session")
def lint() -> Callable[..., dict[str, Any]]:
    return lint_chart
