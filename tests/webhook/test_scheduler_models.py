"""Scheduler models loaded from real config files (the recorded ConfigMaps' texts) and reloaded when they change."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest
from webhook_helpers import FOLDERS, apply_response_patch, fixture_review, pod, review

from linter.model import DEFAULT_SCHEDULER_NAME, KubeSchedulerModel, VolcanoModel
from webhook.admission.decide.pods import PREDICTION_ANNOTATION, SCORES_ANNOTATION
from webhook.admission.scheduler_models import ModelLoadError, SchedulerModels


def _config_text(name: str, key: str) -> str:
    text: str = fixture_review(FOLDERS[0], name)["request"]["object"]["data"][key]
    return text


KUBE = _config_text("configmap-create-kube-scheduler-config.json", "config.yaml")
KUBE_NEGATIVE = _config_text("configmap-update-kube-scheduler-config.json", "config.yaml")
VOLCANO = _config_text("configmap-create-volcano-config.json", "volcano-scheduler.conf")


def _write(path: Path, text: str, bump: int = 0) -> None:
    path.write_text(text)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + bump * 1_000_000_000))


def test_no_files_means_kube_scheduler_defaults_and_no_volcano() -> None:
    kube, volcano = SchedulerModels().current()
    profile = kube.profile(DEFAULT_SCHEDULER_NAME)
    assert profile is not None and profile.fit is not None and profile.fit.strategy == "LeastAllocated"
    assert volcano is None


def test_files_are_loaded_with_the_linters_model(tmp_path: Path) -> None:
    kube_file, volcano_file = tmp_path / "config.yaml", tmp_path / "volcano-scheduler.conf"
    _write(kube_file, KUBE)
    _write(volcano_file, VOLCANO)
    kube, volcano = SchedulerModels(str(kube_file), str(volcano_file)).current()
    assert isinstance(kube, KubeSchedulerModel) and isinstance(volcano, VolcanoModel)
    profile = kube.profile("binpack-scheduler")
    assert profile is not None and profile.fit is not None
    assert profile.fit.strategy == "RequestedToCapacityRatio"
    assert {r.name: r.weight for r in profile.fit.resources} == {"cpu": 1, "memory": 1, "nvidia.com/gpu": 3}
    assert [b.weight for b in volcano.binpack] == [10]


def test_changed_file_is_reloaded_and_a_bad_change_keeps_the_last_good_model(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "config.yaml"
    _write(path, KUBE)
    models = SchedulerModels(str(path))
    first = models.current()[0]
    _write(path, KUBE.replace("binpack-scheduler", "renamed-scheduler"), bump=5)
    second = models.current()[0]
    assert second.profile("renamed-scheduler") is not None and first.profile("renamed-scheduler") is None
    with caplog.at_level(logging.ERROR, logger="webhook.admission.scheduler_models"):
        _write(path, KUBE_NEGATIVE, bump=10)
        assert models.current()[0] is second
    assert any(str(path) in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    ("text", "as_volcano", "fragment"),
    [(None, False, "cannot read"), (KUBE_NEGATIVE, False, "[BPL"), (KUBE, True, "expected a Volcano scheduler conf")],
    ids=["missing", "negative-weight", "kube-as-volcano"],
)
def test_unusable_file_at_start_up_is_a_one_line_error(
    tmp_path: Path, text: str | None, as_volcano: bool, fragment: str
) -> None:
    path = tmp_path / "file.yaml"
    if text is not None:
        _write(path, text)
    with pytest.raises(ModelLoadError) as caught:
        SchedulerModels(None, str(path)) if as_volcano else SchedulerModels(str(path))
    message = str(caught.value)
    assert message.startswith(str(path)) and fragment in message and "\n" not in message


def test_a_worker_built_while_the_file_is_bad_waits_for_a_good_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "config.yaml"
    _write(path, KUBE_NEGATIVE)
    with caplog.at_level(logging.INFO, logger="webhook.admission.scheduler_models"):
        models = SchedulerModels(str(path), strict=False)  # as a gunicorn worker builds them
        assert models.missing() == [str(path)]
        with pytest.raises(ModelLoadError, match="no usable scheduler configuration loaded yet"):
            models.current()
        _write(path, KUBE, bump=5)
        assert models.missing() == []
    assert models.current()[0].profile("binpack-scheduler") is not None
    messages = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("scheduler config not usable (no model yet; this worker waits for a good one): "
                            f"{path}:") for m in messages), messages
    assert f"scheduler config {path} loaded" in messages


def test_strict_models_have_nothing_missing(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    _write(path, KUBE)
    assert SchedulerModels(str(path)).missing() == []
    assert SchedulerModels.static().missing() == []


def test_static_models_are_fixed() -> None:
    kube = SchedulerModels().current()[0]
    models = SchedulerModels.static(kube)
    assert models.current() == (kube, None)


def test_app_scores_pods_with_the_loaded_configs(tmp_path: Path, make_app: Any, view: Any) -> None:
    kube_file, volcano_file = tmp_path / "config.yaml", tmp_path / "volcano-scheduler.conf"
    _write(kube_file, KUBE)
    _write(volcano_file, VOLCANO)
    client = make_app(view, SchedulerModels(str(kube_file), str(volcano_file))).test_client()
    for scheduler, engine, strategy, weight in (
        ("binpack-scheduler", "k8s-fit", "RequestedToCapacityRatio", 1),
        ("volcano", "volcano-binpack", "binpack", 10),  # as explain names it
    ):
        obj = pod(schedulerName=scheduler, requests={"cpu": "2", "memory": "4Gi"})
        response = client.post("/mutate/pods", json=review("Pod", "CREATE", obj)).get_json()["response"]
        annotations = apply_response_patch(obj, response)["metadata"]["annotations"]
        prediction = json.loads(annotations[PREDICTION_ANNOTATION])
        assert (prediction["engine"], prediction["strategy"], prediction["pluginWeight"]) == (engine, strategy, weight)
        assert len(json.loads(annotations[SCORES_ANNOTATION])) == prediction["feasibleNodes"] == 3
