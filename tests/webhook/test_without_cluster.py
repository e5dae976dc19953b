"""Issue 9 §5: the webhook without a cluster (``--cluster-file``, ``review``) and ``kubectl binpack explain``.

``review`` runs in-process through the real CLI; ``serve --cluster-file`` is a real gunicorn server that a
``review --server --patched`` call reaches over loopback; ``kubectl-binpack`` reads the local replay
apiserver through a kubeconfig, and its output must equal ``binpack-lint explain`` on the same objects.
"""

from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from paths import SHARED
from replay_server import ReplayServer, Reply, fixture_bytes, status_body, synthetic_list, wait_until
from server_helpers import ServerProcess

from linter.cli import main as lint_main
from webhook import kubectl_binpack
from webhook.cli import main as webhook_main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples/webhook/pod-review.json"
DOCS_CLUSTER = ROOT / "examples/explain/docs-cluster.yaml"
PLUGIN_OFF = SHARED / "fixtures/admission/priority-plugin-off"


def run(main: Any, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def documents(text: str) -> list[Any]:
    decoder, found, at = json.JSONDecoder(), [], 0
    while at < len(text.strip()):
        doc, end = decoder.raw_decode(text, at)
        found.append(doc)
        at = end
        while at < len(text) and text[at].isspace():
            at += 1
    return found


def test_review_prints_each_response_and_exits_0_when_all_are_allowed() -> None:
    code, out, err = run(webhook_main, "review", "--cluster-file", str(DOCS_CLUSTER), str(SAMPLE),
                         str(PLUGIN_OFF / "priorityclass-create-plain.json"))
    assert (code, err) == (0, "")
    first, second = documents(out)
    assert first["response"]["uid"] == json.loads(SAMPLE.read_text())["request"]["uid"]
    assert first["response"]["allowed"] is True and first["response"]["patchType"] == "JSONPatch"
    assert second["response"]["allowed"] is True


def test_review_exits_1_when_one_is_denied_and_2_for_a_bad_file(tmp_path: Path) -> None:
    unknown = str(PLUGIN_OFF / "pod-create-unknown-class.json")
    code, out, _ = run(webhook_main, "review", str(SAMPLE), unknown)
    denied = documents(out)[1]["response"]
    assert code == 1 and denied["allowed"] is False and denied["status"]["code"] == 403
    broken = tmp_path / "broken.json"
    broken.write_text('{"kind": "AdmissionReview"')
    code, out, err = run(webhook_main, "review", str(broken), str(SAMPLE))
    assert code == 2 and err.startswith(f"binpack-webhook review: error: {broken}: body is not JSON")
    assert len(documents(out)) == 1  # the other file still ran


def test_review_patched_prints_the_scored_pod() -> None:
    code, out, _ = run(webhook_main, "review", "--cluster-file", str(DOCS_CLUSTER), "--patched", str(SAMPLE))
    (patched,) = documents(out)
    scores = json.loads(patched["metadata"]["annotations"]["binpack-guard.io/scores"])
    assert code == 0 and set(scores) == {"node1", "node2"} and patched["spec"]["priority"] == 0


def test_a_bad_cluster_file_is_one_line_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("apiVersion: v1\nkind: List\nitems: []\n")
    code, _, err = run(webhook_main, "review", "--cluster-file", str(empty), str(SAMPLE))
    assert code == 2 and err.count("\n") == 1 and "no Node objects found" in err



def test_a_cluster_file_nested_too_deep_is_one_line_exit_2(tmp_path: Path) -> None:
    # kubectl's layout is read by libyaml, which has no depth limit: a name nested 3000 levels deep was a
    # RecursionError traceback when the message named the pod
    deep = tmp_path / "deep.yaml"
    name = "[" * 3000 + "]" * 3000
    deep.write_text(f"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n"
                    f"    name: {name}\n  spec:\n    containers: [{{name: c}}]\n")
    code, out, err = run(webhook_main, "review", "--cluster-file", str(deep), str(SAMPLE))
    assert (code, out) == (2, "")
    assert err == (f"binpack-webhook review: error: STATE {deep}: not valid YAML/JSON (line 7, column 207): "
                   "nested deeper than 200 levels\n")


@pytest.mark.parametrize(("field", "value", "problem"), [
    ("priority", 2**31 - 1, None),
    ("priority", 2**31, "Pod default/used-on-node1: spec.priority is out of the 32-bit integer range the API "
                        "server stores"),
    ("priority", 2**64, "Pod default/used-on-node1: spec.priority is out of the 32-bit integer range the API "
                        "server stores"),
])
def test_a_bound_pod_priority_no_api_server_stores_is_one_line_exit_2(tmp_path: Path, field: str, value: int,
                                                                     problem: str | None) -> None:
    # the cluster state keeps priorities in an int64 column: 2**64 was an OverflowError traceback
    dump = tmp_path / "cluster.yaml"
    bound = "    nodeName: node1\n"
    dump.write_text(DOCS_CLUSTER.read_text().replace(bound, f"{bound}    {field}: {value}\n", 1))
    code, out, err = run(webhook_main, "review", "--cluster-file", str(dump), str(SAMPLE))
    if problem is None:
        assert code == 0 and err == ""
    else:
        assert (code, out, err) == (2, "", f"binpack-webhook review: error: STATE {dump}: {problem}\n")

def test_a_bound_pod_host_port_of_the_wrong_type_is_one_line_exit_2(tmp_path: Path) -> None:
    # read leniently it was no port, and the webhook ranked as if the node's port were free
    dump = tmp_path / "cluster.yaml"
    image = "      image: registry.k8s.io/pause:3.10\n"
    ports = "      ports: [{containerPort: 80, hostPort: '80'}]\n"
    dump.write_text(DOCS_CLUSTER.read_text().replace(image, image + ports, 1))
    code, out, err = run(webhook_main, "review", "--cluster-file", str(dump), str(SAMPLE))
    assert (code, out, err) == (2, "", f"binpack-webhook review: error: STATE {dump}: Pod default/used-on-node1: "
                                       "spec.containers[0].ports[0].hostPort must be an integer (got a string)\n")


def test_a_bound_pod_host_port_out_of_int32_is_one_line_exit_2(tmp_path: Path) -> None:
    # the API server's decoder refuses it for the int32 field: read as a port, the node's port 80 looked free
    dump = tmp_path / "cluster.yaml"
    image = "      image: registry.k8s.io/pause:3.10\n"
    ports = f"      ports: [{{containerPort: 80, hostPort: {2**32 + 80}}}]\n"
    dump.write_text(DOCS_CLUSTER.read_text().replace(image, image + ports, 1))
    code, out, err = run(webhook_main, "review", "--cluster-file", str(dump), str(SAMPLE))
    assert (code, out, err) == (2, "", f"binpack-webhook review: error: STATE {dump}: Pod default/used-on-node1: "
                                       "spec.containers[0].ports[0].hostPort is out of the 32-bit integer range "
                                       "the API server stores\n")


@pytest.mark.slow
def test_serve_cluster_file_answers_a_sample_review_and_follows_the_file(tmp_path: Path) -> None:
    dump = tmp_path / "cluster.yaml"
    shutil.copy(DOCS_CLUSTER, dump)
    server = ServerProcess(tmp_path, tmp_path / "no-kubeconfig", tls=None,
                           extra=["--cluster-file", str(dump), "--workers", "1"])
    try:
        server.wait_listening()
        url = "http://{}:{}".format(*server.address)

        def scored_nodes() -> set[str]:
            code, out, err = run(webhook_main, "review", "--server", url, "--patched", str(SAMPLE))
            assert code == 0, err
            return set(json.loads(documents(out)[0]["metadata"]["annotations"]["binpack-guard.io/scores"]))

        assert scored_nodes() == {"node1", "node2"}
        text = dump.read_text()
        marker = "- apiVersion: v1\n  kind: Node"
        first = text.index(marker)
        third = text[first:text.index(marker, first + 1)]
        dump.write_text(text.replace("items:\n", "items:\n" + third.replace("node1", "node3"), 1))
        assert wait_until(lambda: "node3" in scored_nodes(), timeout=10)
    finally:
        server.stop()


def _recorded_items(*, with_classes: bool) -> list[dict[str, Any]]:
    """The recorded Nodes and Pods (and PriorityClasses) as the items of the dump explain is given offline."""
    items = [{**n, "kind": "Node"} for n in json.loads(fixture_bytes("list-nodes.raw.json"))["items"]]
    items += [{**p, "kind": "Pod"} for p in json.loads(fixture_bytes("list-pods-all-namespaces.raw.json"))["items"]]
    if with_classes:
        items += [{**c, "kind": "PriorityClass", "apiVersion": "scheduling.k8s.io/v1"}
                  for c in json.loads(fixture_bytes("list-priorityclasses.raw.json"))["items"]]
    return items


def test_kubectl_binpack_explain_equals_binpack_lint_explain_on_the_live_cluster(tmp_path: Path) -> None:
    server = ReplayServer().serve_fixtures().start()
    try:
        kubeconfig = server.kubeconfig(tmp_path / "kubeconfig")
        pod = tmp_path / "pod.json"
        pod.write_text(json.dumps(json.loads(SAMPLE.read_text())["request"]["object"]))
        code, live, err = run(kubectl_binpack.main, "explain", "-f", str(pod), "--kubeconfig", str(kubeconfig))
        assert code == 0, err
        dump = tmp_path / "dump.json"
        items = _recorded_items(with_classes=False)
        dump.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
        code, offline, _ = run(lint_main, "explain", "--cluster", str(dump), "--pod", str(pod))
        assert code == 0 and live == offline and "node-a" in live
    finally:
        server.stop()


KATA = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "kata-fixture"},
        "handler": "kata", "overhead": {"podFixed": {"cpu": "250m", "memory": "160Mi"}}}
CLASSED_POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
               "spec": {"priorityClassName": "bp-high", "runtimeClassName": "kata-fixture",
                        "containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}}


def test_kubectl_binpack_lists_what_explain_reads_from_a_cluster(tmp_path: Path) -> None:
    # the pod's PriorityClass and RuntimeClass live in the cluster: both must be listed for explain to admit it
    server = ReplayServer().serve_fixtures()
    server.defaults[("runtimeclasses", "list")] = synthetic_list("RuntimeClassList", [KATA], "1")
    server.start()
    try:
        kubeconfig = server.kubeconfig(tmp_path / "kubeconfig")
        pod = tmp_path / "pod.json"
        pod.write_text(json.dumps(CLASSED_POD))
        code, live, err = run(kubectl_binpack.main, "explain", "-f", str(pod), "-o", "json",
                              "--kubeconfig", str(kubeconfig))
        assert code == 0, err
        assert {r for r, _, _ in server.requests} == {
            "nodes", "pods", "priorityclasses", "poddisruptionbudgets", "runtimeclasses",
            "services", "replicasets", "statefulsets", "replicationcontrollers", "namespaces"}
        items = _recorded_items(with_classes=True)
        items.append(KATA)
        dump = tmp_path / "dump.json"
        dump.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
        code, offline, _ = run(lint_main, "explain", "--cluster", str(dump), "--pod", str(pod), "-f", "json")
        assert code == 0 and live == offline
        assert json.loads(live)["podRequest"]["cpu"] == 1250  # the class's 250m overhead is part of the request
    finally:
        server.stop()


WEB_RS = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web-1", "namespace": "default"},
          "spec": {"selector": {"matchLabels": {"app": "web"}}}}
WEB_POD = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "web-1-x", "namespace": "default", "labels": {"app": "web"},
                        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1",
                                             "uid": "u", "controller": True}]},
           "spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]}}


def test_kubectl_binpack_lists_the_owner_that_gives_a_pod_its_default_spreading(tmp_path: Path) -> None:
    server = ReplayServer().serve_fixtures()
    server.defaults[("replicasets", "list")] = synthetic_list("ReplicaSetList", [{**WEB_RS}], "1")
    server.start()
    try:
        kubeconfig = server.kubeconfig(tmp_path / "kubeconfig")
        pod = tmp_path / "pod.json"
        pod.write_text(json.dumps(WEB_POD))
        code, live, err = run(kubectl_binpack.main, "explain", "-f", str(pod), "-o", "json",
                              "--kubeconfig", str(kubeconfig))
        assert (code, err) == (0, "")
        doc = json.loads(live)
        assert doc["podTopologySpreadDefaulted"] is True and doc["podTopologySpreadNote"] is None
        assert [c["topologyKey"] for c in doc["podTopologySpreadConstraints"]] == [
            "kubernetes.io/hostname", "topology.kubernetes.io/zone"]
        items = _recorded_items(with_classes=True)
        dump = tmp_path / "dump.json"
        dump.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [*items, WEB_RS]}))
        code, offline, _ = run(lint_main, "explain", "--cluster", str(dump), "--pod", str(pod), "-f", "json")
        assert code == 0 and live == offline
    finally:
        server.stop()


def test_kubectl_binpack_explains_without_a_spreading_kind_it_may_not_list(tmp_path: Path) -> None:
    server = ReplayServer().serve_fixtures()
    server.defaults[("replicasets", "list")] = Reply(status=403, body=status_body(403, "Forbidden", "no"))
    server.start()
    try:
        kubeconfig = server.kubeconfig(tmp_path / "kubeconfig")
        pod = tmp_path / "pod.json"
        pod.write_text(json.dumps(WEB_POD))
        code, live, err = run(kubectl_binpack.main, "explain", "-f", str(pod), "-o", "json",
                              "--kubeconfig", str(kubeconfig))
        assert code == 0
        assert err == ("kubectl binpack explain: warning: list replicasets: HTTP 403 Forbidden; "
                       "explained without replicasets\n")
        doc = json.loads(live)
        assert doc["podTopologySpreadConstraints"] == [] and "web-1" in doc["podTopologySpreadNote"]
    finally:
        server.stop()


def test_kubectl_binpack_names_a_kind_it_may_not_list(tmp_path: Path) -> None:
    server = ReplayServer().serve_fixtures()
    server.defaults[("runtimeclasses", "list")] = Reply(status=403, body=status_body(403, "Forbidden", "no"))
    server.start()
    try:
        kubeconfig = server.kubeconfig(tmp_path / "kubeconfig")
        pod = tmp_path / "pod.json"
        pod.write_text(json.dumps(CLASSED_POD))
        code, out, err = run(kubectl_binpack.main, "explain", "-f", str(pod), "--kubeconfig", str(kubeconfig))
        assert (code, out) == (2, "")
        assert err == ("kubectl binpack explain: error: cannot read the cluster: list runtimeclasses: "
                       "HTTP 403 Forbidden\n")
    finally:
        server.stop()


def test_kubectl_binpack_without_a_reachable_cluster_is_one_line_exit_2(tmp_path: Path) -> None:
    pod = tmp_path / "pod.json"  # a good pod: a bad one is reported before the cluster is read
    pod.write_text(json.dumps(json.loads(SAMPLE.read_text())["request"]["object"]))
    code, _, err = run(kubectl_binpack.main, "explain", "-f", str(pod), "--kubeconfig", str(tmp_path / "none"))
    assert code == 2 and err.count("\n") == 1 and "cannot read the cluster" in err


BAD_CPU_POD = "kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, resources: {requests: {cpu: 2x}}}]}\n"


@pytest.mark.parametrize(("files", "extra", "code", "line"), [
    ({"pod.yaml": BAD_CPU_POD}, (), 2,
     "binpack-lint explain: error: POD {tmp}/pod.yaml: Pod default/p: spec.containers[0].resources.requests.cpu: "
     "'2x' has an unknown unit 'x' (use n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or an exponent such as e3)"),
    ({}, (), 2, "binpack-lint explain: error: POD {tmp}/pod.yaml: cannot read: No such file or directory"),
    ({"pod.yaml": "kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a}]}\n"}, ("--profile", "nope"), 2,
     "binpack-lint explain: error: no profile named 'nope' in the scheduler config (profiles: default-scheduler)"),
    ({"pod.yaml": "kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a}]}\n"},
     ("--config", "{tmp}/sched.yaml"), 2, "binpack-lint explain: error: SCHED {tmp}/sched.yaml: cannot read: "
     "No such file or directory"),
])
def test_kubectl_binpack_checks_its_local_files_before_it_calls_the_apiserver(
        tmp_path: Path, files: dict[str, str], extra: tuple[str, ...], code: int, line: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    server = ReplayServer().serve_fixtures().start()
    try:
        kubeconfig = server.kubeconfig(tmp_path / "kubeconfig")
        argv = [a.format(tmp=tmp_path) for a in ("explain", "-f", "{tmp}/pod.yaml", *extra)]
        assert run(kubectl_binpack.main, *argv, "--kubeconfig", str(kubeconfig)) == (
            code, "", line.format(tmp=tmp_path) + "\n")
        assert server.requests == []  # not one call: the bad input was found first
    finally:
        server.stop()


def test_kubectl_binpack_reports_an_invalid_scheduler_config_before_it_calls_the_apiserver(tmp_path: Path) -> None:
    (tmp_path / "pod.yaml").write_text("kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a}]}\n")
    (tmp_path / "sched.yaml").write_text("apiVersion: kubescheduler.config.k8s.io/v1\n"
                                         "kind: KubeSchedulerConfiguration\nprofiles: 5\n")
    server = ReplayServer().serve_fixtures().start()
    try:
        kubeconfig = server.kubeconfig(tmp_path / "kubeconfig")
        code, out, err = run(kubectl_binpack.main, "explain", "-f", str(tmp_path / "pod.yaml"), "--config",
                             str(tmp_path / "sched.yaml"), "--kubeconfig", str(kubeconfig))
        assert (code, out) == (1, "") and err.startswith(f"{tmp_path}/sched.yaml:3:") and " error [BPL" in err
        assert server.requests == []
    finally:
        server.stop()


@pytest.mark.parametrize(("url", "reason"), [
    ("notaurl", "expected an http:// or https:// URL with a host, got 'notaurl'"),
    ("ftp://host", "expected an http:// or https:// URL with a host, got 'ftp://host'"),
    ("http://", "expected an http:// or https:// URL with a host, got 'http://'"),
    ("http://[::1", "'http://[::1' is not a URL: Invalid IPv6 URL"),
])
def test_review_server_that_is_not_an_http_url_is_one_line_exit_2(url: str, reason: str) -> None:
    code, out, err = run(webhook_main, "review", "--server", url, str(SAMPLE))
    assert (code, out, err) == (2, "", f"binpack-webhook review: error: --server: {reason}\n")


@pytest.mark.parametrize(("argv", "line"), [
    ((), "kubectl binpack: error: the following arguments are required: {explain}"),
    (("explain",), "kubectl binpack explain: error: the following arguments are required: -f/--filename"),
    (("explain", "-f", "p.yaml", "-o", "yaml"),
     "kubectl binpack explain: error: argument -o/--output: invalid choice: 'yaml' (choose from 'text', 'json')"),
])
def test_kubectl_binpack_usage_error_is_one_line_exit_2(argv: tuple[str, ...], line: str) -> None:
    code, out, err = run(kubectl_binpack.main, *argv)
    assert (code, out, err) == (2, "", line + "\n")


def test_a_bug_in_one_decision_is_one_line_exit_2_and_the_other_files_still_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import webhook.review

    decide = webhook.review.decide

    def failing_on_priorityclasses(request: Any, *rest: Any) -> Any:  # an injected bug, for one kind only
        if request.kind.kind == "PriorityClass":
            raise RuntimeError("boom\n  at line two")
        return decide(request, *rest)

    monkeypatch.setattr(webhook.review, "decide", failing_on_priorityclasses)
    plain = PLUGIN_OFF / "priorityclass-create-plain.json"
    code, out, err = run(webhook_main, "review", str(plain), str(SAMPLE))
    assert code == 2
    assert err == f"binpack-webhook review: internal error: {plain}: RuntimeError: boom at line two\n"
    assert [doc["response"]["allowed"] for doc in documents(out)] == [True]  # the pod review still ran


def test_a_bug_outside_the_decisions_is_one_line_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import webhook.review

    def broken_reader(path: str) -> Any:  # an injected bug in reading the cluster file
        raise KeyError("items")

    monkeypatch.setattr(webhook.review, "DumpClusterView", broken_reader)
    code, out, err = run(webhook_main, "review", "--cluster-file", str(DOCS_CLUSTER), str(SAMPLE))
    assert (code, out) == (2, "")
    assert err == "binpack-webhook review: internal error: KeyError: 'items'\n"


SCHEDULER_PLUGINS_CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    plugins:
      multiPoint:
        enabled:
          - name: PodState
"""


def test_review_judges_configs_for_the_scheduler_build_it_is_given(tmp_path: Path) -> None:
    """As the server's --scheduler-build: the scoring config and a labelled ConfigMap are judged for that build."""
    config = tmp_path / "sp.yaml"
    config.write_text(SCHEDULER_PLUGINS_CONFIG)
    review = json.loads((SHARED / "fixtures/admission/priority-plugin-on/configmap-create-kube-scheduler-config.json")
                        .read_text())
    review["request"]["object"]["data"] = {"config.yaml": SCHEDULER_PLUGINS_CONFIG}
    configmap = tmp_path / "configmap-review.json"
    configmap.write_text(json.dumps(review))
    code, _, err = run(webhook_main, "review", "--scheduler-config", str(config), str(SAMPLE))
    assert code == 2 and "PodState" in err and len(err.splitlines()) == 1
    code, out, _ = run(webhook_main, "review", str(configmap))
    assert code == 1 and "PodState" in documents(out)[0]["response"]["status"]["message"]
    code, out, err = run(webhook_main, "review", "--scheduler-build", "scheduler-plugins", "--scheduler-config",
                         str(config), "--cluster-file", str(DOCS_CLUSTER), str(SAMPLE), str(configmap))
    pod, cm = documents(out)
    assert (code, err) == (0, "") and pod["response"]["allowed"] is True and cm["response"]["allowed"] is True
