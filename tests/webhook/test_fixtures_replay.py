"""Replay EVERY recorded AdmissionReview (both folders, in recorded order) through the Flask test client.

The view starts with the recorded nodes and the two built-in classes; each PriorityClass
change the webhook allows is applied to it, as the watch would. Expected results come
from the recordings themselves: with the Priority plugin on, pods already carry what the
plugin wrote, so the webhook must not touch ``spec``; with it off, the patched pod must
equal the plugin-on recording of the same pod in ``priorityClassName``, ``priority`` and
``preemptionPolicy``, and nothing else in ``spec`` may change. The two requests the
plugin rejects itself must be denied with the messages quoted in fixtures/README.md.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient
from webhook_helpers import (
    ENDPOINT_OF_RECORDED_PATH,
    FOLDERS,
    SHARED,
    apply_response_patch,
    fixture_body,
    fixture_index,
    fixture_nodes,
    fixture_review,
    patch_ops,
    response_of,
)

from webhook.admission.decide.pods import PREDICTION_ANNOTATION, SCORES_ANNOTATION
from webhook.cluster.static import StaticClusterView

README = (SHARED / "fixtures" / "README.md").read_text()
UNKNOWN_CLASS_MESSAGE = re.search(r"403 `(pods \"pod-unknown-class\" is forbidden: [^`]+)`", README)
SECOND_DEFAULT_WHY = re.search(r"403 `(PriorityClass bp-default is already marked as default[^`]+)`", README)
PRIORITY_FIELDS = ("priorityClassName", "priority", "preemptionPolicy")


def _post(client: FlaskClient, entry: dict[str, Any], body: bytes) -> dict[str, Any]:
    url = urlsplit(entry["url"])
    headers = {k: v for k, v in entry["headers"].items() if k not in ("Host", "Content-Length")}
    reply = client.post(f"{ENDPOINT_OF_RECORDED_PATH[url.path]}?{url.query}", data=body, headers=headers)
    assert reply.status_code == 200, reply.data
    response = response_of(reply.get_json())
    assert response["uid"] == json.loads(body)["request"]["uid"]
    return response


def _replay(client: FlaskClient, view: StaticClusterView, folder: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    results = []
    for entry in fixture_index(folder):
        body = fixture_body(folder, entry["file"])
        response = _post(client, entry, body)
        request = json.loads(body)["request"]
        if entry["kind"] == "PriorityClass" and response["allowed"]:
            if entry["operation"] == "DELETE":
                view.delete_priority_class(entry["name"])
            else:
                view.apply_priority_class(request["object"])
        results.append((entry, response))
    return results


@pytest.fixture
def replayed(client: FlaskClient, view: StaticClusterView, request: pytest.FixtureRequest) -> Any:
    return _replay(client, view, request.param)


def _unscored_spec(spec: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in spec.items() if k not in PRIORITY_FIELDS}


def _check_annotations(pod: dict[str, Any], patched: dict[str, Any]) -> None:
    annotations = patched["metadata"]["annotations"]
    assert set(annotations) - set(pod["metadata"].get("annotations") or {}) == {
        SCORES_ANNOTATION,
        PREDICTION_ANNOTATION,
    }
    scores = json.loads(annotations[SCORES_ANNOTATION])
    prediction = json.loads(annotations[PREDICTION_ANNOTATION])
    nodes = fixture_nodes()
    gpus = int(pod["spec"]["containers"][0].get("resources", {}).get("requests", {}).get("nvidia.com/gpu", "0"))
    fitting = {
        n["metadata"]["name"] for n in nodes if int(n["status"]["allocatable"].get("nvidia.com/gpu", "0")) >= gpus
    }
    assert set(scores) == fitting
    assert prediction["feasibleNodes"] == len(fitting) and prediction["totalNodes"] == len(nodes)
    assert all(isinstance(s, int) and 0 <= s <= 100 for s in scores.values())
    assert list(scores.values()) == sorted(scores.values(), reverse=True)


@pytest.mark.parametrize("replayed", FOLDERS, indirect=True)
def test_every_recorded_request_gets_the_in_tree_answer(replayed: Any, request: pytest.FixtureRequest) -> None:
    folder = request.node.callspec.params["replayed"]
    assert UNKNOWN_CLASS_MESSAGE is not None and SECOND_DEFAULT_WHY is not None
    seen = set()
    for entry, response in replayed:
        seen.add(entry["file"])
        request_body = fixture_review(folder, entry["file"])["request"]
        name = entry["file"]
        if name == "pod-create-unknown-class.json":
            assert response["status"] == {"code": 403, "message": UNKNOWN_CLASS_MESSAGE.group(1), "reason": "Forbidden"}
        elif name == "priorityclass-create-second-global-default.json":
            message = f'priorityclasses.scheduling.k8s.io "bp-default-2" is forbidden: {SECOND_DEFAULT_WHY.group(1)}'
            assert response["status"] == {"code": 403, "message": message, "reason": "Forbidden"}
        elif name == "configmap-update-kube-scheduler-config.json":
            assert response["allowed"] is False and response["status"]["code"] == 422
            assert "config.yaml:" in response["status"]["message"] and "[BPL" in response["status"]["message"]
        elif entry["kind"] == "Pod" and entry["operation"] == "CREATE":
            pod = request_body["object"]
            patched = apply_response_patch(pod, response)
            touched_spec = [op for op in patch_ops(response) if op["path"].startswith("/spec")]
            if folder == "priority-plugin-on":
                assert touched_spec == []
            on_spec = fixture_review("priority-plugin-on", name)["request"]["object"]["spec"]
            for field in PRIORITY_FIELDS:
                assert patched["spec"].get(field) == on_spec.get(field), (name, field)
            assert _unscored_spec(patched["spec"]) == _unscored_spec(pod["spec"])
            assert {k: v for k, v in patched["metadata"].items() if k != "annotations"} == {
                k: v for k, v in pod["metadata"].items() if k != "annotations"
            }
            _check_annotations(pod, patched)
        else:
            assert response == {"uid": request_body["uid"], "allowed": True}, name
    assert seen == {e["file"] for e in fixture_index(folder)}


def test_dry_run_gets_the_same_answer(client: FlaskClient, view: StaticClusterView) -> None:
    view.apply_priority_class(fixture_review(FOLDERS[0], "priorityclass-create-plain.json")["request"]["object"])
    for folder in FOLDERS:
        document = fixture_review(folder, "pod-create-dry-run.json")
        assert document["request"]["dryRun"] is True
        wet = json.loads(json.dumps(document))
        wet["request"]["dryRun"] = False
        answers = [response_of(client.post("/mutate/pods", json=d).get_json()) for d in (document, wet)]
        assert answers[0] == answers[1]
        assert answers[0]["allowed"] is True and "patch" in answers[0]
