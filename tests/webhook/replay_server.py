"""A tiny kube-apiserver stand-in on 127.0.0.1 that replays recorded wire format.

It serves what the real ``kubernetes`` client asks for: LIST (optionally paginated), WATCH streams sent with
HTTP/1.1 chunked transfer encoding, error ``Status`` answers, and the coordination.k8s.io Lease endpoints with
real optimistic concurrency (resourceVersion mismatch -> 409); a test may set ``LeaseTable.absent_read_gate`` to
force a read race on the Lease (see ``LeaseReadGate``). Replies are scripted per resource: a queue of
one-shot replies is consumed first, then a default reply is used. A watch whose lines run out is held open
(like an idle apiserver watch) until its ``timeoutSeconds`` passes, the client goes away or the server stops.
Every request line is recorded so tests can check what the client sent.
"""

from __future__ import annotations

import base64
import collections
import json
import select
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from paths import SHARED

WATCH_FIXTURES = SHARED / "fixtures/watch"

RESOURCE_PATHS = {
    "/api/v1/nodes": "nodes",
    "/api/v1/pods": "pods",
    "/apis/scheduling.k8s.io/v1/priorityclasses": "priorityclasses",
    "/apis/policy/v1/poddisruptionbudgets": "poddisruptionbudgets",
    "/apis/node.k8s.io/v1/runtimeclasses": "runtimeclasses",  # kubectl binpack lists them; the cache does not
    # kubectl binpack also lists what explain's PodTopologySpread and InterPodAffinity read
    "/api/v1/services": "services",
    "/apis/apps/v1/replicasets": "replicasets",
    "/apis/apps/v1/statefulsets": "statefulsets",
    "/api/v1/replicationcontrollers": "replicationcontrollers",
    "/api/v1/namespaces": "namespaces",
}
SPREADING_LISTS = {"services": "ServiceList", "replicasets": "ReplicaSetList", "statefulsets": "StatefulSetList",
                   "replicationcontrollers": "ReplicationControllerList", "namespaces": "NamespaceList"}
LEASE_PREFIX = "/apis/coordination.k8s.io/v1/namespaces/"
CLASS_PREFIX = "/apis/scheduling.k8s.io/v1/priorityclasses/"  # GET one class by name (the live read)


@dataclass
class Reply:
    """One scripted HTTP answer: a whole body, or (for watches) lines streamed in chunks."""

    status: int = 200
    body: bytes = b""
    lines: list[bytes] | None = None
    hold: bool = True  # watches: keep the stream open after the lines, as an idle apiserver does
    hang: bool = False  # watches: ignore timeoutSeconds too (a hung apiserver connection)
    delay: float = 0.0


Responder = Callable[[Mapping[str, str]], Reply]


def fixture_bytes(name: str) -> bytes:
    return (WATCH_FIXTURES / name).read_bytes()


def fixture_reply(name: str) -> Reply:
    """A recorded LIST or Status answer, status code taken from the recorded status line."""
    status = int(fixture_bytes(f"{name}.headers.txt").split(b" ", 2)[1])
    return Reply(status=status, body=fixture_bytes(f"{name}.raw.json").rstrip(b"\n"))


def fixture_watch(name: str, *, hold: bool = True) -> Reply:
    lines = [line for line in fixture_bytes(f"{name}.jsonl").split(b"\n") if line]
    return Reply(lines=lines, hold=hold)


def paged_fixture(pages: list[str]) -> Responder:
    """Serve recorded pages: the first without ``continue``, the next one for each page's continue token."""
    by_token: dict[str | None, Reply] = {}
    token: str | None = None
    for page in pages:
        by_token[token] = fixture_reply(page)
        token = json.loads(by_token[token].body)["metadata"].get("continue")

    def respond(query: Mapping[str, str]) -> Reply:
        reply = by_token.get(query.get("continue"))
        return reply if reply is not None else Reply(status=400, body=status_body(400, "BadRequest", "bad token"))

    return respond


def synthetic_list(kind: str, items: list[dict[str, Any]], resource_version: str) -> Responder:
    """Serve ``items`` as a LIST honouring ``limit``/``continue`` (token = base64 offset)."""

    def respond(query: Mapping[str, str]) -> Reply:
        start = int(base64.b64decode(query["continue"])) if query.get("continue") else 0
        limit = int(query.get("limit") or 0) or len(items)
        chunk = items[start : start + limit]
        meta: dict[str, Any] = {"resourceVersion": resource_version}
        if start + limit < len(items):
            meta["continue"] = base64.b64encode(str(start + limit).encode()).decode()
            meta["remainingItemCount"] = len(items) - start - limit
        body = {"kind": kind, "apiVersion": "v1", "metadata": meta, "items": chunk}
        return Reply(body=json.dumps(body, separators=(",", ":")).encode())

    return respond


def status_body(code: int, reason: str, message: str) -> bytes:
    status = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
              "message": message, "reason": reason, "code": code}
    return json.dumps(status, separators=(",", ":")).encode()


def event_line(event_type: str, obj: Mapping[str, Any]) -> bytes:
    return json.dumps({"type": event_type, "object": obj}, separators=(",", ":")).encode()


class LeaseReadGate:
    """One-shot gate that holds the first ``parties`` callers of ``hold`` until all of them have arrived.

    A Lease claim is GET, then POST (absent) or PUT (held). Holding the answers to GETs that found no Lease
    until several claimers have read it makes them all POST, so the apiserver's 409 race really happens
    instead of depending on how the OS schedules the claimers. If fewer than ``parties`` come within ``timeout``
    seconds of the first, everyone held is let go (and the gate stays open): a test sees the missing race in its
    own checks rather than hanging. ``timeout`` must stay below the client's read timeout (the webhook's
    Lease calls allow 5 s, and never more than what is left of the review's time budget, 2.5 s by default),
    or the held reader gives up before its answer comes; a test that wants it to give up holds it longer.
    """

    def __init__(self, parties: int, timeout: float = 3.0) -> None:
        if parties < 1:
            raise ValueError("parties must be at least 1")
        self.parties, self.timeout = parties, timeout
        self.held = 0  # callers held so far (at most ``parties``)
        self.filled = False  # True when all ``parties`` arrived; False after a timeout
        self._open = False
        self._deadline: float | None = None
        self._condition = threading.Condition()

    def hold(self) -> None:
        with self._condition:
            if self._open:
                return
            if self._deadline is None:  # one deadline for the whole gate, so a late arrival cannot extend it
                self._deadline = time.monotonic() + self.timeout
            self.held += 1
            if self.held >= self.parties:
                self.filled = self._open = True
                self._condition.notify_all()
                return
            remaining = self._deadline - time.monotonic()
            if not self._condition.wait_for(lambda: self._open, timeout=max(0.0, remaining)):
                self._open = True  # timed out: release the others too, and let later callers through
                self._condition.notify_all()


@dataclass
class LeaseTable:
    """Leases keyed by (namespace, name) with a global resourceVersion counter, like etcd's revision."""

    leases: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    revision: int = 1000
    lock: threading.Lock = field(default_factory=threading.Lock)
    # None (the default): every GET is answered at once. Else GETs that find no Lease wait at the gate.
    absent_read_gate: LeaseReadGate | None = None


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # many webhook threads may connect at once (the Lease race test)


class ReplayServer:
    """Owns the HTTP server thread; scripts replies per (resource, "list"|"watch")."""

    def __init__(self) -> None:
        self.queues: dict[tuple[str, str], collections.deque[Reply | Responder]] = collections.defaultdict(
            collections.deque
        )
        self.defaults: dict[tuple[str, str], Reply | Responder] = {}
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.leases = LeaseTable()
        self.classes: dict[str, dict[str, Any]] = {}  # what GET .../priorityclasses/{name} answers (else 404)
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="replay-server", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> ReplayServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def serve_fixtures(self) -> ReplayServer:
        """Default answers: the recorded full LISTs, and watches that stay idle."""
        self.defaults[("nodes", "list")] = fixture_reply("list-nodes")
        self.defaults[("pods", "list")] = fixture_reply("list-pods-all-namespaces")
        self.defaults[("priorityclasses", "list")] = fixture_reply("list-priorityclasses")
        # No PodDisruptionBudgets were recorded: an empty policy/v1 list (tests script their own).
        self.defaults[("poddisruptionbudgets", "list")] = synthetic_list("PodDisruptionBudgetList", [], "1")
        self.defaults[("runtimeclasses", "list")] = synthetic_list("RuntimeClassList", [], "1")
        for resource, list_kind in SPREADING_LISTS.items():
            self.defaults[(resource, "list")] = synthetic_list(list_kind, [], "1")
        for resource in ("nodes", "pods", "priorityclasses", "poddisruptionbudgets"):
            self.defaults[(resource, "watch")] = Reply(lines=[])
        return self

    def enqueue(self, resource: str, verb: str, *replies: Reply | Responder) -> None:
        with self._lock:
            self.queues[(resource, verb)].extend(replies)

    def next_reply(self, resource: str, verb: str, query: Mapping[str, str]) -> Reply:
        with self._lock:
            queue = self.queues[(resource, verb)]
            entry = queue.popleft() if queue else self.defaults.get((resource, verb))
        if entry is None:
            return Reply(status=404, body=status_body(404, "NotFound", "nothing scripted"))
        return entry if isinstance(entry, Reply) else entry(query)

    def requests_for(self, resource: str, verb: str) -> list[dict[str, str]]:
        with self._lock:
            return [q for (r, v, q) in self.requests if r == resource and v == verb]

    def record(self, resource: str, verb: str, query: dict[str, str]) -> None:
        with self._lock:
            self.requests.append((resource, verb, query))

    def kubeconfig(self, path: Path) -> Path:
        """Write a kubeconfig pointing at this server (plain HTTP on loopback, a token user)."""
        config = {
            "apiVersion": "v1", "kind": "Config", "current-context": "replay",
            "clusters": [{"name": "replay", "cluster": {"server": self.url}}],
            "users": [{"name": "replay", "user": {"token": "replay-token"}}],
            "contexts": [{"name": "replay", "context": {"cluster": "replay", "user": "replay"}}],
        }
        path.write_text(json.dumps(config))
        return path


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` passes; returns the last result."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def _make_handler(server: ReplayServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
            return

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            if parts.path.startswith(LEASE_PREFIX):
                self._lease("GET", parts.path)
                return
            if parts.path.startswith(CLASS_PREFIX):
                self._get_class(parts.path[len(CLASS_PREFIX):])
                return
            resource = RESOURCE_PATHS.get(parts.path)
            if resource is None:
                self._send(404, status_body(404, "NotFound", parts.path))
                return
            verb = "watch" if query.get("watch") in ("1", "true", "True") else "list"
            server.record(resource, verb, query)
            reply = server.next_reply(resource, verb, query)
            if reply.delay:
                time.sleep(reply.delay)
            if reply.lines is None:
                self._send(reply.status, reply.body, chunked=reply.status == 200)
            else:
                self._stream(reply, float(query.get("timeoutSeconds") or 300))

        def do_POST(self) -> None:
            self._lease("POST", urlsplit(self.path).path)

        def do_PUT(self) -> None:
            self._lease("PUT", urlsplit(self.path).path)

        def _send(self, status: int, body: bytes, *, chunked: bool = False) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Audit-Id", "replay")
            if chunked:  # the apiserver sends LIST bodies chunked, error Status bodies with a length
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self._chunks([body])
            else:
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        def _chunks(self, pieces: Iterable[bytes], *, end: bool = True) -> None:
            for piece in pieces:
                if piece:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            if end:
                self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _stream(self, reply: Reply, timeout: float) -> None:
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for line in reply.lines or []:
                self._chunks([line + b"\n"], end=False)
            deadline = time.monotonic() + (3600.0 if reply.hang else timeout)
            while reply.hold and not server.stopping.is_set() and time.monotonic() < deadline:
                readable, _, _ = select.select([self.connection], [], [], 0.05)
                if readable and not self.connection.recv(1, 0x2):  # MSG_PEEK: empty = client closed
                    return
            self._chunks([])
            self.close_connection = True

        def _get_class(self, name: str) -> None:
            server.record("priorityclasses", "get", {"name": name})
            with server._lock:
                queue = server.queues[("priorityclasses", "get")]
                scripted = queue.popleft() if queue else None
            if isinstance(scripted, Reply):
                time.sleep(scripted.delay)
                try:
                    self._send(scripted.status, scripted.body)
                except (BrokenPipeError, ConnectionResetError):  # a delayed answer whose reader gave up
                    self.close_connection = True
            elif name in server.classes:
                self._send(200, json.dumps(server.classes[name]).encode())
            else:
                message = f'priorityclasses.scheduling.k8s.io "{name}" not found'
                self._send(404, status_body(404, "NotFound", message))

        def _lease(self, method: str, path: str) -> None:
            # /apis/coordination.k8s.io/v1/namespaces/{ns}/leases[/{name}]
            rest = path[len(LEASE_PREFIX):].split("/")
            namespace = rest[0]
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else {}
            name = rest[2] if len(rest) > 2 else body.get("metadata", {}).get("name", "")
            server.record("leases", method, {"name": name})
            status, answer = _lease_op(server.leases, method, namespace, name, body)
            gate = server.leases.absent_read_gate
            if gate is not None and method == "GET" and status == 404:
                # Held outside the table lock, so writes go on; the answer stays what was read on arrival,
                # as a real apiserver's reply in flight may already be stale.
                gate.hold()
            self._send(status, json.dumps(answer).encode())

    return Handler


def _lease_op(
    table: LeaseTable, method: str, namespace: str, name: str, body: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    with table.lock:
        current = table.leases.get((namespace, name))
        if method == "GET":
            if current is None:
                return 404, json.loads(status_body(404, "NotFound", f'leases "{name}" not found'))
            return 200, current
        if method == "POST" and current is not None:
            return 409, json.loads(status_body(409, "AlreadyExists", f'leases "{name}" already exists'))
        if method == "PUT":
            if current is None:
                return 404, json.loads(status_body(404, "NotFound", f'leases "{name}" not found'))
            sent_rv = body.get("metadata", {}).get("resourceVersion")
            if sent_rv != current["metadata"]["resourceVersion"]:
                message = f'Operation cannot be fulfilled on leases "{name}": the object has been modified'
                return 409, json.loads(status_body(409, "Conflict", message))
        table.revision += 1
        stored = dict(body)
        stored["apiVersion"] = "coordination.k8s.io/v1"
        stored["kind"] = "Lease"
        stored["metadata"] = {**body.get("metadata", {}), "name": name, "namespace": namespace,
                              "resourceVersion": str(table.revision)}
        table.leases[(namespace, name)] = stored
        return (201 if method == "POST" else 200), stored
