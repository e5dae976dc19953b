"""Values no apiserver would send but anyone reaching the port can: never a 500, never a traceback.

Lone UTF-16 surrogates (``\\ud800`` escapes) become U+FFFD as Go's JSON decoder makes them; integers
longer than Python's 4,300-digit conversion limit are judged as out-of-range numbers.
"""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient
from webhook_helpers import pod, review

from webhook.admission.decide.configmaps import SELECTOR_LABEL

HUGE = "9" * 5000


def _configmap(data: dict[str, str]) -> dict[str, object]:
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "cfg", "namespace": "kube-system", "labels": {SELECTOR_LABEL: "true"}}, "data": data}


def _post(client: FlaskClient, path: str, text: str) -> tuple[int, dict[str, object]]:
    reply = client.post(path, data=text.encode("ascii"), content_type="application/json")
    return reply.status_code, reply.get_json()


def test_a_lone_surrogate_in_a_pod_is_decided_like_u_fffd(client: FlaskClient) -> None:
    marked = json.dumps(review("Pod", "CREATE", pod("MARK")))
    status, body = _post(client, "/mutate/pods", marked.replace("MARK", "w\\ud800"))
    same_status, same_body = _post(client, "/mutate/pods", marked.replace("MARK", "w\\ufffd"))
    assert status == same_status == 200
    assert body == same_body


def test_a_huge_integer_in_a_pod_is_an_answer_not_a_crash(client: FlaskClient) -> None:
    document = review("Pod", "CREATE", pod("web"))
    text = json.dumps(document).replace('"spec": {', f'"spec": {{"priority": {HUGE}, ', 1)
    assert HUGE in text
    status, body = _post(client, "/mutate/pods", text)
    assert status in (200, 400)
    assert "internal error" not in json.dumps(body)


@pytest.mark.parametrize("value", [
    f"apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: {HUGE}\n",
    "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
    "profiles:\n- schedulerName: a\\ud800\n",
])
def test_configmaps_with_hostile_values_get_a_verdict(client: FlaskClient, value: str) -> None:
    text = json.dumps(review("ConfigMap", "CREATE", _configmap({"config.yaml": "MARK"})))
    escaped = json.dumps(value).replace("\\\\ud800", "\\ud800")  # a lone surrogate escape in the JSON body
    status, body = _post(client, "/validate/configmaps", text.replace('"MARK"', escaped))
    assert status == 200
    response = body["response"]
    assert isinstance(response, dict) and "internal error" not in json.dumps(response)
    if HUGE in value:
        assert response["allowed"] is False and "BPL016" in response["status"]["message"]
