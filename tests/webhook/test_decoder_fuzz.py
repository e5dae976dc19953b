"""Property tests over the decoder and the routes: any body gets a clean answer, never an exception or a 500.

Bodies are drawn from raw bytes, arbitrary JSON, and AdmissionReviews with random
damage, so both the envelope checks and the policies' handling of odd objects run.
"""

from __future__ import annotations

import json
from typing import Any

from conftest import AppFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhook_helpers import pod, priority_class, review

from webhook.admission.decode import MalformedReview, decode
from webhook.cluster.static import StaticClusterView

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
KINDS = ("Pod", "PriorityClass", "ConfigMap", "Node")
POD_SPEC_FIELDS = (
    "priority",
    "priorityClassName",
    "preemptionPolicy",
    "containers",
    "initContainers",
    "overhead",
    "resources",
    "nodeSelector",
    "tolerations",
    "affinity",
    "schedulerName",
    "nodeName",
)
FIELDS = ("uid", "kind", "operation", "object", "oldObject", "dryRun", "name", "namespace", "subResource", "userInfo")


@st.composite
def damaged_reviews(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(KINDS))
    base = {"Pod": pod(), "PriorityClass": priority_class("p", 1), "ConfigMap": {"metadata": {"name": "c"}}}
    obj = base.get(kind, {"metadata": {}})
    document = review(kind, draw(st.sampled_from(("CREATE", "UPDATE", "DELETE", "CONNECT"))), obj, obj)
    request = document["request"]
    for field in draw(st.lists(st.sampled_from(FIELDS), max_size=3, unique=True)):
        if draw(st.booleans()):
            request.pop(field, None)
        else:
            request[field] = draw(json_values)
    if draw(st.booleans()) and isinstance(request.get("object"), dict):
        spec = request["object"].setdefault("spec", {})
        if isinstance(spec, dict):
            spec[draw(st.sampled_from(POD_SPEC_FIELDS))] = draw(json_values)
    for key in draw(st.lists(st.sampled_from(("value", "globalDefault", "metadata", "data")), max_size=2)):
        if isinstance(request.get("object"), dict):
            request["object"][key] = draw(json_values)
    return document


@given(body=st.binary(max_size=200))
def test_decode_raw_bytes_never_raises_anything_else(body: bytes) -> None:
    try:
        decode(body)
    except MalformedReview as exc:
        assert str(exc) and "\n" not in str(exc)


@given(value=json_values)
def test_decode_any_json_is_malformed_or_a_request(value: Any) -> None:
    try:
        request = decode(json.dumps(value).encode())
    except MalformedReview:
        return
    assert isinstance(request.uid, str) and request.uid


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    document=damaged_reviews(),
    endpoint=st.sampled_from(["/mutate/pods", "/validate/priorityclasses", "/validate/configmaps"]),
)
def test_routes_answer_every_damaged_review_cleanly(
    make_app: AppFactory, view: StaticClusterView, document: dict[str, Any], endpoint: str
) -> None:
    client = make_app(view).test_client()
    reply = client.post(endpoint, data=json.dumps(document), content_type="application/json")
    assert reply.status_code in (200, 400), reply.data
    body = reply.get_json()
    uid = document["request"].get("uid")
    if reply.status_code == 200:
        assert body["response"]["uid"] == uid and isinstance(body["response"]["allowed"], bool)
    else:
        assert isinstance(body["error"], str)
        if isinstance(uid, str) and uid:
            assert body.get("uid") == uid
