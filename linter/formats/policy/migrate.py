"""The kube-scheduler v1 equivalent of a legacy RequestedToCapacityRatio priority.

A Policy priority ``{weight: W, argument: {requestedToCapacityRatioArguments: {shape, resources}}}``
becomes NodeResourcesFit with ``scoringStrategy.type: RequestedToCapacityRatio``, the same
shape and resources, and score-plugin weight W. The shape keeps its
0..10 scores: v1 still writes them on that scale, but multiplies them by 10 internally, so
node scores now run 0..100 instead of 0..10 (relative to other plugins, nothing changes).
"""

from __future__ import annotations

import json
from typing import Any

import yaml

from linter.model import DEFAULT_RESOURCES, LegacyRtcrPriority

SCALE_NOTE = ("shape scores stay on the 0..10 scale in v1, but node scores now run 0..100 (each shape score is "
              "multiplied by 10), so W keeps the same weight relative to other score plugins")


def v1_config(rtcr: LegacyRtcrPriority) -> dict[str, Any]:
    """A complete KubeSchedulerConfiguration (v1) doing what the legacy priority did."""
    resources = rtcr.resources or DEFAULT_RESOURCES
    return {
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        "profiles": [{
            "schedulerName": "default-scheduler",
            "plugins": {"score": {"enabled": [{"name": "NodeResourcesFit", "weight": rtcr.weight}]}},
            "pluginConfig": [{
                "name": "NodeResourcesFit",
                "args": {"scoringStrategy": {
                    "type": "RequestedToCapacityRatio",
                    "resources": [{"name": r.name, "weight": r.weight} for r in resources],
                    "requestedToCapacityRatio": {
                        "shape": [{"utilization": p.utilization, "score": p.score} for p in rtcr.shape],
                    },
                }},
            }],
        }],
    }


def v1_snippet(rtcr: LegacyRtcrPriority) -> str:
    """:func:`v1_config` as block YAML, ready to paste into a ``--config`` file."""
    return yaml.safe_dump(v1_config(rtcr), sort_keys=False, default_flow_style=False)


def v1_one_line(rtcr: LegacyRtcrPriority) -> str:
    """:func:`v1_config` as compact JSON (JSON is YAML), for a one-line finding message."""
    return json.dumps(v1_config(rtcr), separators=(",", ":"))


def v1_caveats(rtcr: LegacyRtcrPriority) -> list[str]:
    """Things the v1 validation refuses that the legacy Policy allowed."""
    out: list[str] = []
    for r in rtcr.resources:
        if r.weight > 100:
            out.append(f"v1 allows resource weights up to 100 (resource {r.name} has {r.weight})")
    return out
