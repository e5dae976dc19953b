"""The bad inputs of ``webhook_badinput_bench.py``: a raw HTTP/1.1 client over TLS, and each case with its check.

A case opens its own connection, sends its bytes (malformed on purpose, so no HTTP library) and reads one
answer. Its check says what the answer must be: an HTTP error with a failed v1 ``Status`` whose message is
one line (and the request's uid when one was readable), an AdmissionReview echoing the uid, or no answer
at all (a body that never arrives is cut off at the request deadline).
"""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_BODY = 7 * 1024 * 1024
Address = tuple[str, int]


class Reply:
    def __init__(self, status: int, headers: dict[str, str], body: bytes, error: str = "") -> None:
        self.status, self.headers, self.body, self.error = status, headers, body, error


def read_reply(sock: socket.socket, buf: bytes = b"", *, head_only: bool = False) -> tuple[Reply, bytes]:
    """The next final answer (1xx skipped; status 0 if the connection closed first) and the bytes past it."""
    while True:
        reply, buf = _read_one(sock, buf, head_only)
        if not 100 <= reply.status < 200:
            return reply, buf


def _read_one(sock: socket.socket, buf: bytes, head_only: bool) -> tuple[Reply, bytes]:
    try:
        while b"\r\n\r\n" not in buf:
            data = sock.recv(65536)
            if not data:
                return Reply(0, {}, b"", "closed before an answer"), b""
            buf += data
        head, rest = buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
        if head_only or 100 <= status < 200:
            return Reply(status, headers, b""), rest
        if "content-length" in headers:
            length = int(headers["content-length"])
            while len(rest) < length and (data := sock.recv(65536)):
                rest += data
            return Reply(status, headers, rest[:length]), rest[length:]
        while data := sock.recv(65536):
            rest += data
        return Reply(status, headers, rest), b""
    except (OSError, ValueError) as exc:
        return Reply(0, {}, b"", f"{type(exc).__name__}: {exc}"), b""


def connect(context: ssl.SSLContext, address: Address, timeout: float) -> ssl.SSLSocket:
    return context.wrap_socket(socket.create_connection(address, timeout=timeout), server_hostname="localhost")


def request_bytes(method: str, path: str, body: bytes | None, *, headers: dict[str, str | None] | None = None,
                  version: str = "HTTP/1.1", content_length: int | None = None) -> bytes:
    """A request; a header given as None is left out, ``content_length`` may lie about the body."""
    fields: dict[str, str | None] = {"Host": "localhost", "Content-Type": "application/json"}
    if body is not None:
        fields["Content-Length"] = str(len(body) if content_length is None else content_length)
    fields.update(headers or {})
    head = f"{method} {path} {version}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items() if v is not None)
    return head.encode("latin-1") + b"\r\n" + (body or b"")


def chunked(body: bytes, size: int = 4096) -> bytes:
    parts = [body[i:i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


# ---------------------------------------------------------------- checks

Check = Callable[[Reply], str | None]  # None: the answer is right; else what is wrong with it


def status_doc(code: int, uid: str | None = None) -> Check:
    """HTTP ``code`` with a failed v1 Status whose message is one line (echoing ``uid`` if given)."""
    def check(r: Reply) -> str | None:
        if r.status != code:
            return f"status {r.status} (want {code}) {r.error} {r.body[:120]!r}"
        try:
            doc = json.loads(r.body)
        except ValueError:
            return f"body is not JSON: {r.body[:120]!r}"
        if doc.get("kind") != "Status" or doc.get("apiVersion") != "v1" or doc.get("code") != code:
            return f"not a v1 Status: {r.body[:160]!r}"
        message = doc.get("message")
        if not isinstance(message, str) or not message or "\n" in message or "Traceback" in message:
            return f"message not one line: {message!r}"
        if uid is not None and doc.get("uid") != uid:
            return f"uid {doc.get('uid')!r} not echoed (want {uid!r})"
        return None
    return check


def review_doc(uid: str) -> Check:
    """HTTP 200 with an AdmissionReview echoing ``uid`` (a denial's message one line, no internal error)."""
    def check(r: Reply) -> str | None:
        if r.status != 200:
            return f"status {r.status} (want 200) {r.error} {r.body[:200]!r}"
        try:
            response = json.loads(r.body)["response"]
        except (ValueError, KeyError, TypeError):
            return f"not an AdmissionReview: {r.body[:160]!r}"
        if response.get("uid") != uid:
            return f"uid {response.get('uid')!r} (want {uid!r})"
        message = (response.get("status") or {}).get("message", "")
        if "\n" in message or "Traceback" in message or "internal error" in message:
            return f"bad denial message {message[:200]!r}"
        return None
    return check


def one_of(*checks: Check) -> Check:
    def check(r: Reply) -> str | None:
        errors = [c(r) for c in checks]
        return None if None in errors else " | ".join(e for e in errors if e)
    return check


def no_answer(r: Reply) -> str | None:
    return None if r.status == 0 else f"expected no answer, got {r.status} {r.body[:100]!r}"


def any_answer(r: Reply) -> str | None:
    return None


# ---------------------------------------------------------------- inputs

KSC = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
LAUGHS = KSC + "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(8))


def review(obj: Any, uid: str | None, kind: str, group: str, resource: str, name: str, namespace: str) -> bytes:
    request: dict[str, Any] = {"kind": {"group": group, "version": "v1", "kind": kind},
                               "resource": {"group": group, "version": "v1", "resource": resource},
                               "operation": "CREATE", "name": name, "namespace": namespace, "object": obj,
                               "oldObject": None, "dryRun": False, "userInfo": {"username": "kubernetes-admin"}}
    if uid is not None:
        request["uid"] = uid
    return json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request}).encode()


def configmap(data: dict[str, str], uid: str) -> bytes:
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "data": data,
           "metadata": {"name": "sched", "namespace": "kube-system",
                        "labels": {"binpack-guard.io/scheduler-config": "true"}}}
    return review(obj, uid, "ConfigMap", "", "configmaps", "sched", "kube-system")


def priorityclass(fields: dict[str, Any], uid: str) -> bytes:
    obj = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "pc"}, **fields}
    return review(obj, uid, "PriorityClass", "scheduling.k8s.io", "priorityclasses", "pc", "")


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def bloated(body: bytes, size: int) -> bytes:
    """``body`` with an unread field of empty objects up to ``size`` bytes (decoded: 25 times as big)."""
    filler = (size - len(body) - 200) // 3
    return body.replace(b'"metadata": {', b'"metadata": {"x": [' + b"{}," * filler + b"{}], ", 1)


# ---------------------------------------------------------------- sending

Run = Callable[[ssl.SSLContext, Address], Reply]
Case = tuple[str, Run, Check]


def send(data: bytes, *, head_only: bool = False, timeout: float = 60) -> Run:
    def run(context: ssl.SSLContext, address: Address) -> Reply:
        with connect(context, address, timeout) as sock:
            with contextlib.suppress(OSError):  # the server answered (413) and closed first: read what it said
                sock.sendall(data)
            return read_reply(sock, head_only=head_only)[0]
    return run


def send_then_close(data: bytes) -> Run:
    def run(context: ssl.SSLContext, address: Address) -> Reply:
        with connect(context, address, 10) as sock:
            sock.sendall(data)
        return Reply(0, {}, b"", "closed by the client")
    return run


def drip(head: bytes, body: bytes, bytes_per_second: float) -> Run:
    """The header at once, then the body two bytes at a time."""
    def run(context: ssl.SSLContext, address: Address) -> Reply:
        with connect(context, address, 60) as sock:
            sock.sendall(head)
            for i in range(0, len(body), 2):
                try:
                    sock.sendall(body[i:i + 2])
                except OSError:
                    break
                time.sleep(2 / bytes_per_second)
            return read_reply(sock)[0]
    return run


SLOW = ("Content-Length larger than the body", "slow drip, small bad body", "slow drip past the deadline")


def build_cases(pod_file: Path) -> list[Case]:
    """Every bad input once, plus a few valid ones sent oddly (chunked, HTTP/1.0, Expect: 100-continue).
    The ``SLOW`` ones hold their connection for seconds (until the body arrives or the deadline)."""
    doc = json.loads(pod_file.read_bytes())
    pod, uid = json.dumps(doc).encode(), doc["request"]["uid"]
    cases: list[Case] = []

    def post(name: str, body: bytes | None, check: Check, path: str = "/mutate/pods", **kw: Any) -> None:
        cases.append((name, send(request_bytes("POST", path, body, **kw)), check))

    def pod_with(uid: str, edit: Callable[[dict[str, Any]], object]) -> bytes:
        d = json.loads(pod)
        d["request"]["uid"] = uid
        edit(d["request"])
        return json.dumps(d).encode()

    def in_spec(extra: bytes) -> bytes:
        return pod.replace(b'"spec": {', b'"spec": {' + extra, 1)

    # JSON of the wrong shape
    post("truncated JSON", pod[: len(pod) // 2], status_doc(400))
    post("request missing", b'{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}', status_doc(400))
    post("uid missing", pod_with("x", lambda r: r.pop("uid")), status_doc(400))
    post("uid a number", pod.replace(f'"uid": "{uid}"'.encode(), b'"uid": 12345', 1), status_doc(400))
    post("object a list", pod_with("obj-list", lambda r: r.update(object=[1, 2])), status_doc(400, "obj-list"))
    post("top level a list", b"[1,2,3]", status_doc(400))
    post("kind not AdmissionReview", pod.replace(b'"kind": "AdmissionReview"', b'"kind": "Pod"', 1),
         status_doc(400, uid))
    post("huge int priority", in_spec(b'"priority": ' + b"9" * 5000 + b","), review_doc(uid))
    post("huge float priority", in_spec(b'"priority": 1e999,'), review_doc(uid))
    post("huge cpu quantity", pod_with("cpu", lambda r: r["object"]["spec"]["containers"][0].setdefault(
        "resources", {}).update(requests={"cpu": "9" * 5000})), review_doc("cpu"))
    post("nested 10k levels", nested(10_000), status_doc(400))
    post("nested 10k levels in the object", in_spec(b'"x": ' + nested(10_000) + b","), status_doc(400))
    for depth in (900, 990):
        post(f"nested {depth} levels in the object", in_spec(b'"x": ' + nested(depth) + b","),
             one_of(review_doc(uid), status_doc(400)))
        post(f"nested {depth} levels with a lone surrogate",
             in_spec(b'"x": ' + b"[" * depth + b'"\\udc00"' + b"]" * depth + b","),
             one_of(review_doc(uid), status_doc(400)))
    post("non-UTF-8 bytes", pod.replace(b'"name": "', b'"name": "\xff\xfe', 1), status_doc(400))
    post("raw NUL in a string", pod.replace(b'"name": "', b'"name": "\x00', 1), status_doc(400))
    post("NUL bytes only", b"\x00" * 1000, status_doc(400))
    post("escaped NUL in a string", pod.replace(b'"name": "', b'"name": "\\u0000', 1), review_doc(uid))
    post("UTF-16 body", json.dumps(doc).encode("utf-16"), one_of(review_doc(uid), status_doc(400)))
    post("pod bloated to 7 MiB", bloated(pod, MAX_BODY), one_of(review_doc(uid), status_doc(503)))
    # headers and framing
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        post(f"Content-Type {content_type}", pod, review_doc(uid), headers={"Content-Type": content_type})
    post("Content-Type with a control byte", pod, status_doc(400), headers={"Content-Type": "a\x7f"})
    post("empty body", b"", status_doc(400))
    post("no body, no Content-Length", None, status_doc(400))
    over = b"[" + b"1," * (MAX_BODY // 2) + b"1]"
    cases.append(("body over 7 MiB", send(request_bytes("POST", "/mutate/pods", over)), status_doc(413)))
    cases.append(("chunked body over 7 MiB", send(request_bytes("POST", "/mutate/pods", None, headers={
        "Transfer-Encoding": "chunked"}) + chunked(over, 65536)), status_doc(413)))
    post("Content-Length over 7 MiB", b"", status_doc(413), content_length=MAX_BODY + 1)
    post("Content-Length 30 digits", pod, status_doc(413), headers={"Content-Length": "9" * 30})
    post("Content-Length negative", pod, status_doc(400), content_length=-5)
    post("Content-Length not a number", pod, status_doc(400), headers={"Content-Length": "12abc"})
    post("Content-Length twice", pod, status_doc(400), headers={"content-length": "5"})
    post("Content-Length smaller than the body", pod, status_doc(400), content_length=len(pod) // 2)
    cases.append(("Content-Length larger than the body",
                  send(request_bytes("POST", "/mutate/pods", pod, content_length=len(pod) + 100)), no_answer))
    chunked_head = request_bytes("POST", "/mutate/pods", None, headers={"Transfer-Encoding": "chunked"})
    cases.append(("chunked body", send(chunked_head + chunked(pod, 777)), review_doc(uid)))
    cases.append(("invalid chunk size", send(chunked_head + b"zz\r\n{}\r\n0\r\n\r\n"), status_doc(400)))
    cases.append(("chunked and Content-Length", send(request_bytes("POST", "/mutate/pods", None, headers={
        "Transfer-Encoding": "chunked", "Content-Length": "5"}) + chunked(pod)), status_doc(400)))
    cases.append(("unknown transfer coding", send(request_bytes("POST", "/mutate/pods", None, headers={
        "Transfer-Encoding": "foo, chunked"}) + chunked(pod)), status_doc(501)))
    cases.append(("closed mid-body", send_then_close(request_bytes("POST", "/mutate/pods", pod)[:2000]), any_answer))
    cases.append(("slow drip, small bad body",
                  drip(request_bytes("POST", "/mutate/pods", None, headers={"Content-Length": "24"}),
                       b'{"a": 1, "b": [1, 2, 3]}', 4),
                  status_doc(400)))
    cases.append(("slow drip past the deadline",
                  drip(request_bytes("POST", "/mutate/pods", None, headers={"Content-Length": str(len(pod))}), pod, 6),
                  no_answer))
    post("Expect: 100-continue", pod, review_doc(uid), headers={"Expect": "100-continue"})
    post("Expect: other", pod, status_doc(417), headers={"Expect": "tea"})
    post("too many headers", pod, status_doc(431), headers={f"X-H{i}": "v" for i in range(150)})
    post("header over 8 KiB", pod, status_doc(431), headers={"X-Big": "v" * 9000})
    post("header name with a space", pod, status_doc(400), headers={"Bad Header": "v"})
    post("header value with a control byte", pod, status_doc(400), headers={"X-A": "a\x01b"})
    # request lines, versions, paths, methods
    post("HTTP/1.0", pod, review_doc(uid), version="HTTP/1.0")
    post("HTTP/9.9", pod, status_doc(400), version="HTTP/9.9")
    cases.append(("no HTTP version", send(b"GET /readyz\r\n\r\n"), status_doc(400)))
    cases.append(("HTTP/2 preface", send(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), status_doc(400)))
    cases.append(("TLS record as request line", send(b"\x16\x03\x01hello\r\n\r\n"), status_doc(400)))
    cases.append(("invalid method", send(b"G@T /readyz HTTP/1.1\r\nHost: x\r\n\r\n"), status_doc(400)))
    for path in ("/", "/mutate-pods", "/mutate/pods/", "/%ff%fe"):
        post(f"path {path}", pod, status_doc(404), path=path)
    post("query string", pod, review_doc(uid), path="/mutate/pods?timeout=10s")
    post("request line over 8 KiB", pod, status_doc(414), path="/" + "a" * 9000)
    for method in ("GET", "PUT", "DELETE", "PATCH", "BREW"):
        cases.append((f"method {method}", send(request_bytes(method, "/mutate/pods", None if method == "GET" else pod)),
                      status_doc(405)))
    cases.append(("method HEAD", send(request_bytes("HEAD", "/mutate/pods", None), head_only=True),
                  lambda r: None if r.status == 405 else f"status {r.status}"))
    # ConfigMaps (linted in a bounded child) and PriorityClasses
    big = "profiles:\n" + "- schedulerName: s\n" * 20_000
    for name, data in [("300k profiles", KSC + "profiles:\n" + "- schedulerName: s\n" * 300_000),
                       ("billion laughs", LAUGHS), ("nested 20k flow levels", KSC + "profiles: " + "[" * 20_000),
                       ("nested 1k block levels", KSC + "".join("  " * i + f"k{i}:\n" for i in range(1000))),
                       ("NUL bytes", "\x00\x01" * 1000), ("3 MB line", KSC + "x: " + "a" * 3_000_000),
                       ("50k merge keys", KSC + "a: &a {x: 1}\n" + "".join(f"b{i}: {{<<: *a}}\n"
                                                                            for i in range(50_000)))]:
        uid_cm = f"cm-{len(cases)}"
        post(f"ConfigMap {name}", configmap({"config.yaml": data}, uid_cm),
             one_of(review_doc(uid_cm), status_doc(503)), path="/validate/configmaps")
    post("ConfigMap 2,000 keys", configmap({f"k{i}.yaml": KSC for i in range(2000)}, "cm-keys"),
         one_of(review_doc("cm-keys"), status_doc(503)), path="/validate/configmaps")
    post("ConfigMap data a list", configmap({}, "cm-list").replace(b'"data": {}', b'"data": [1]'),
         review_doc("cm-list"), path="/validate/configmaps")
    post("ConfigMap bloated to 7 MiB", bloated(configmap({"config.yaml": KSC + big}, "cm-bloat"), MAX_BODY),
         one_of(review_doc("cm-bloat"), status_doc(503)), path="/validate/configmaps")
    for i, fields in enumerate([{"value": "high"}, {"value": 1e400}, {"value": 10 ** 30}, {"value": 2_000_000_000},
                                {"value": 1, "globalDefault": "yes"}, {"value": 1, "preemptionPolicy": "Sometimes"},
                                {"value": 1, "description": "d" * 2_000_000}, {"value": 1, "metadata": [1]},
                                {"value": 1, "metadata": {"name": "Bad_Name" * 40}}]):
        body = priorityclass(fields, f"pc{i}")  # a large one may find the worker busy with another (503)
        post(f"PriorityClass {json.dumps(fields)[:40]}", body,
             one_of(review_doc(f"pc{i}"), status_doc(503)) if len(body) > 1024 * 1024 else review_doc(f"pc{i}"),
             path="/validate/priorityclasses")
    return cases
