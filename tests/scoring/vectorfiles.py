"""Loading the shared, read-only vector files and turning their node lists into node views."""

from __future__ import annotations

import json
from typing import Any

from paths import SHARED

from linter.scoring.nodes import NodeView

VECTORS = SHARED / "vectors"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VECTORS / name).read_text())
    return data


def cases(name: str, engine: str | None = None) -> list[dict[str, Any]]:
    return [c for c in load(name)["cases"] if engine is None or c.get("engine") == engine]


def vector_node_view(node: dict[str, Any]) -> NodeView:
    """A scoring.json node (``{name, allocatable, pods}``) as a NodeView; its pods are bound there."""
    view = NodeView.from_node({"metadata": {"name": node["name"]}, "status": {"allocatable": node["allocatable"]}})
    for pod in node.get("pods", []):
        view.add_pod(pod)
    return view
