"""Race: many concurrent globalDefault PriorityClass CREATEs against TWO webhook servers -> exactly one allowed.

Both servers (real gunicorn, two workers each) share one Lease on the local replay server, which
implements Lease GET/POST/PUT with real resourceVersion checks (409 on a stale write). No cluster state
helps here: none of the new classes exists in any cache, so only the Lease can keep them apart.
The replay server holds the first Lease reads that find no Lease until two claimers have read it
(``LeaseReadGate``), so at least two of them try to create it and one gets 409 AlreadyExists: without that,
a loaded machine can serve the racers one after the other, and the first claim is written before anyone
else reads, so the Lease is never contended.
The racers present the apiserver's client certificate (the servers verify it against ``--client-ca-file``):
only such a caller drives the claim; a forged review without it changes no Lease.
A claim the Lease cannot decide in time is answered by the review's budget (BINPACK_GUARD_PRIORITY_CLASS_TIMEOUT_MS).
"""

from __future__ import annotations

import copy
import http.client
import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paths import SHARED
from replay_server import LeaseReadGate, ReplayServer, fixture_bytes, synthetic_list, wait_until
from server_helpers import ServerProcess, client_context, make_ca, make_leaf

pytestmark = pytest.mark.slow

REVIEW = SHARED / "fixtures/admission/priority-plugin-on/priorityclass-create-global-default.json"
RACERS = 32


def review_for(name: str) -> bytes:
    review = json.loads(REVIEW.read_bytes())
    request = review["request"]
    request["uid"] = str(uuid.uuid4())
    request["name"] = name
    request["object"] = copy.deepcopy(request["object"])
    request["object"]["metadata"]["name"] = name
    return json.dumps(review).encode()


@pytest.fixture
def replay() -> Iterator[ReplayServer]:
    server = ReplayServer().serve_fixtures().start()
    # the recorded classes minus any globalDefault, so the cache alone would allow every racer
    classes = [c for c in json.loads(fixture_bytes("list-priorityclasses.raw.json"))["items"]
               if not c.get("globalDefault")]
    server.defaults[("priorityclasses", "list")] = synthetic_list("PriorityClassList", classes, "239")
    yield server
    server.stop()


def test_exactly_one_of_many_concurrent_global_defaults_is_allowed(replay: ReplayServer, tmp_path: Path) -> None:
    ca, clients_ca = make_ca("race CA"), make_ca("apiserver client CA")
    (tmp_path / "clients-ca.crt").write_bytes(clients_ca.cert_pem)
    servers = []
    for index in range(2):
        home = tmp_path / f"server{index}"
        home.mkdir()
        servers.append(ServerProcess(home, replay.kubeconfig(home / "kubeconfig"), tls=make_leaf(ca),
                                     extra=["--workers", "2", "--threads", "4"], kubeconfig_from_env=True,
                                     env={"BINPACK_GUARD_LEASE_NAMESPACE": "binpack-guard",
                                          "BINPACK_GUARD_CLIENT_CA_FILE": str(tmp_path / "clients-ca.crt"),
                                          "BINPACK_GUARD_APISERVER_CLIENT_NAME": "kube-apiserver"}))
    try:
        apiserver = make_leaf(clients_ca, "kube-apiserver", client=True)
        context = client_context(ca, identity=apiserver, tmp=tmp_path)
        anyone = client_context(ca)
        other_name = client_context(ca, identity=make_leaf(clients_ca, "kubelet", client=True), tmp=tmp_path)

        def post(server: ServerProcess, path: str, body: bytes | None = None,
                 context: Any = context) -> tuple[int, Any]:
            conn = http.client.HTTPSConnection(*server.address, context=context, timeout=30)
            try:
                conn.request("POST" if body else "GET", path, body=body,
                             headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                return response.status, json.loads(response.read())
            finally:
                conn.close()

        for server in servers:
            server.wait_listening()
            assert wait_until(lambda s=server: post(s, "/readyz")[0] == 200, timeout=30)  # type: ignore[misc]

        # Forged reviews (no client certificate, or one without the apiserver's name) claim nothing.
        for forger in (anyone, other_name):
            status, answer = post(servers[0], "/validate/priorityclasses", review_for("forged"), forger)
            assert status == 200 and answer["response"]["allowed"] is True  # the cache-only check
        assert not [r for r in replay.requests if r[0] == "leases"]
        assert ("binpack-guard", "binpack-guard-global-default") not in replay.leases.leases

        # Two claimers reading the absent Lease is all a race needs; waiting for more would only slow the
        # test when few arrive together (the gate then times out and the last check below fails).
        replay.leases.absent_read_gate = LeaseReadGate(parties=2)
        answers: dict[str, dict[str, Any]] = {}
        barrier = threading.Barrier(RACERS)

        def race(index: int) -> None:
            name = f"racer-{index:02d}"
            body = review_for(name)
            barrier.wait()
            status, answer = post(servers[index % 2], "/validate/priorityclasses", body)
            assert status == 200
            answers[name] = answer["response"]

        threads = [threading.Thread(target=race, args=(i,)) for i in range(RACERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(answers) == RACERS
        winners = [name for name, response in answers.items() if response["allowed"]]
        assert len(winners) == 1, winners
        for name, response in answers.items():
            if name != winners[0]:
                assert winners[0] in response["status"]["message"]
                assert "Only one default can exist" in response["status"]["message"]
        stored = replay.leases.leases[("binpack-guard", "binpack-guard-global-default")]
        assert stored["spec"]["holderIdentity"] == winners[0]
        writes = [r for r in replay.requests if r[0] == "leases" and r[1] in ("POST", "PUT")]
        assert len(writes) >= 2  # the lease really was contended (more than one process tried)
    finally:
        for server in servers:
            server.stop()


def test_a_claim_the_lease_cannot_decide_in_time_is_answered_within_the_reviews_budget(
    replay: ReplayServer, tmp_path: Path
) -> None:
    ca, clients_ca = make_ca("deadline CA"), make_ca("apiserver client CA")
    (tmp_path / "clients-ca.crt").write_bytes(clients_ca.cert_pem)
    server = ServerProcess(tmp_path, replay.kubeconfig(tmp_path / "kubeconfig"), tls=make_leaf(ca),
                           extra=["--workers", "1"], kubeconfig_from_env=True,
                           env={"BINPACK_GUARD_LEASE_NAMESPACE": "binpack-guard",
                                "BINPACK_GUARD_CLIENT_CA_FILE": str(tmp_path / "clients-ca.crt"),
                                "BINPACK_GUARD_PRIORITY_CLASS_TIMEOUT_MS": "1000"})
    try:
        context = client_context(ca, identity=make_leaf(clients_ca, "kube-apiserver", client=True), tmp=tmp_path)

        def post(path: str, body: bytes | None = None) -> tuple[int, Any]:
            conn = http.client.HTTPSConnection(*server.address, context=context, timeout=30)
            try:
                conn.request("POST" if body else "GET", path, body=body, headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                return response.status, json.loads(response.read())
            finally:
                conn.close()

        server.wait_listening()
        assert wait_until(lambda: post("/readyz")[0] == 200, timeout=30)
        # The lone claimer's read of the absent Lease is held 20 s: past the Lease request's own 5 s, the
        # claim's 3 s of retrying, and the review's 1 s budget.
        replay.leases.absent_read_gate = LeaseReadGate(parties=2, timeout=20.0)
        started = time.monotonic()
        status, answer = post("/validate/priorityclasses", review_for("late-default"))
        elapsed = time.monotonic() - started
        assert status == 200
        response = answer["response"]
        assert (response["allowed"], response["status"]["code"], response["status"]["reason"]) == (
            False, 500, "InternalError")
        assert response["status"]["message"].startswith(
            "cannot claim the cluster-wide globalDefault lease for late-default: this review's time budget ran "
            "out before the claim was decided; last error: lease binpack-guard/binpack-guard-global-default: ")
        assert elapsed < 2.5  # before the deadline reached the claim, the held read alone took 5 s
    finally:
        server.stop()
