"""The kube-scheduler example files behave as their comments say."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.engine import lint_text, load_scheduler_model
from linter.model import KubeSchedulerModel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", ["kube-scheduler-mostallocated.yaml", "kube-scheduler-rtcr.yaml",
                                  "kube-scheduler-configmap.yaml"])
def test_good_examples_are_clean_and_give_a_model(name: str) -> None:
    text = (EXAMPLES / name).read_text()
    assert lint_text(text, name) == []
    model, _ = load_scheduler_model(text, name)
    assert isinstance(model, KubeSchedulerModel)
    assert model.profiles[0].fit is not None


def test_mostallocated_example_weights() -> None:
    model, _ = load_scheduler_model((EXAMPLES / "kube-scheduler-mostallocated.yaml").read_text(), "m.yaml")
    assert isinstance(model, KubeSchedulerModel)
    profile = model.profiles[0]
    assert profile.fit_weight == 5
    assert profile.fit is not None and [(r.name, r.weight) for r in profile.fit.resources] == [
        ("cpu", 2), ("memory", 1), ("nvidia.com/gpu", 3)]


@pytest.mark.parametrize(("name", "codes"), [
    ("kube-scheduler-broken.yaml", ["BPL150", "BPL202", "BPL150", "BPL201"]),
    ("kube-scheduler-v1beta3.yaml", ["BPL011", "BPL013"]),
])
def test_broken_examples_report_what_their_comments_say(name: str, codes: list[str]) -> None:
    assert [f.rule for f in lint_text((EXAMPLES / name).read_text(), name)] == codes
