"""explain warns about a pending pod the API server would refuse for its resources (pkg/apis/core/validation
1.36), and still explains it as written.

Messages are the API server's field errors (``validateResourceRequirements``,
``validatePodResourceConsistency``), checked on the pod as stored: limits already copied into missing
requests, quantities printed as ``Quantity.String()`` prints them.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from linter.cli import main
from linter.scoring.apidefaults import stored_pod
from linter.scoring.apivalidation import resource_refusal

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110", "nvidia.com/gpu": "4"}}}


def _pod(spec: dict[str, Any], name: str = "p") -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec}


def _one(resources: dict[str, Any]) -> dict[str, Any]:
    return {"containers": [{"name": "c", "resources": resources}]}


@pytest.mark.parametrize(("spec", "error"), [
    (_one({"requests": {"cpu": "2"}, "limits": {"cpu": "1000m"}}),
     'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'),
    (_one({"requests": {"memory": "2Gi"}, "limits": {"memory": "1536Mi"}}),
     'spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of '
     "1536Mi"),
    # an extended resource may not be overcommitted: the request must equal the limit, and needs one
    (_one({"requests": {"nvidia.com/gpu": "1"}, "limits": {"nvidia.com/gpu": "2"}}),
     'spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2'),
    (_one({"requests": {"nvidia.com/gpu": "1"}}),
     "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"),
    (_one({"requests": {"hugepages-2Mi": "2Mi", "memory": "1Gi"}}),
     "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"),
    (_one({"limits": {"nvidia.com/gpu": "500m"}}),
     'spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "500m": must be an integer'),
    ({"containers": [{"name": "a"}], "initContainers": [{"name": "i", "resources": {
        "requests": {"cpu": "3"}, "limits": {"cpu": "2"}}}]},
     'spec.initContainers[0].resources.requests: Invalid value: "3": must be less than or equal to cpu limit of 2'),
    # pod level: a request above its limit, or below what the containers ask for together
    # as for a container, the path is the requests list, not the resource (validateResourceRequirements)
    ({"resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}, "containers": [{"name": "a"}]},
     'spec.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'),
    ({"resources": {"requests": {"cpu": "1", "memory": "576Mi"}},
      "containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "3Gi"}}},
                     {"name": "b", "resources": {"requests": {"cpu": "500m", "memory": "3Gi"}}}]},
     'spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container '
     "requests of 1500m"),
    ({"resources": {"requests": {"memory": "576Mi"}},
      "containers": [{"name": "a", "resources": {"requests": {"memory": "3Gi"}}},
                     {"name": "b", "resources": {"requests": {"memory": "3Gi"}}}]},
     'spec.resources.requests[memory]: Invalid value: "576Mi": must be greater than or equal to aggregate '
     "container requests of 6Gi"),
])
def test_the_api_servers_refusal(spec: dict[str, Any], error: str) -> None:
    assert resource_refusal(stored_pod(_pod(spec))) == error


def _pod_level(level: dict[str, Any], *containers: dict[str, Any]) -> dict[str, Any]:
    return {"resources": level, "containers": [{"name": f"c{i}", "resources": r} for i, r in enumerate(containers)]}


_REGEX_HELP = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
               "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
               "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


@pytest.mark.parametrize(("spec", "error"), [
    # validatePodResourceConsistency: each container's limit against the pod-level limit of the same resource
    (_pod_level({"requests": {"cpu": "1"}, "limits": {"cpu": "1"}},
                {"requests": {"cpu": "250m"}, "limits": {"cpu": "500m"}},
                {"requests": {"cpu": "250m"}, "limits": {"cpu": "1500m"}}),
     'spec.resources.containers[1][cpu].limits: Invalid value: "1500m": must be less than or equal to pod limits of 1'),
    (_pod_level({"requests": {"memory": "1Gi"}, "limits": {"memory": "1Gi"}},
                {"requests": {"memory": "512Mi"}, "limits": {"memory": "2Gi"}}),
     'spec.resources.containers[0][memory].limits: Invalid value: "2Gi": must be less than or equal to pod limits of '
     "1Gi"),
    # validateContainerResourceName
    (_one({"requests": {"foo": "1"}}),
     'spec.containers[0].resources.requests[foo]: Invalid value: "foo": must be a standard resource type or fully '
     "qualified"),
    (_one({"limits": {"requests.cpu": "1"}}),
     'spec.containers[0].resources.limits[requests.cpu]: Invalid value: "requests.cpu": must be a standard resource '
     "for containers"),
    (_one({"limits": {"pods": "1"}}),
     'spec.containers[0].resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers'),
    (_one({"limits": {"requests.example.com/gpu": "1"}}),
     'spec.containers[0].resources.limits[requests.example.com/gpu]: Invalid value: "requests.example.com/gpu": '
     "doesn't follow extended resource name standard"),
    # the name is printed as encoding/json quotes it, HTML-safe
    (_one({"limits": {"example.com/a<b": "1"}}),
     'spec.containers[0].resources.limits[example.com/a<b]: Invalid value: "example.com/a\\u003cb": name part '
     + _REGEX_HELP),
    # validatePodResourceName: only cpu, memory and hugepages-* at pod level
    ({"resources": {"requests": {"ephemeral-storage": "1Gi"}}, "containers": [{"name": "a"}]},
     'spec.resources.requests[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", '
     '"hugepages-", "memory"'),
    # hugepages: a whole number of pages, and never alone (validateResourceRequirements)
    (_one({"limits": {"hugepages-2Mi": "3Mi", "memory": "1Gi"}}),
     'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple '
     "of hugepages-2Mi"),
    (_one({"limits": {"hugepages-2Mi": "2Mi"}}),
     "spec.containers[0].resources: Forbidden: HugePages require cpu or memory"),
    # Quantity.String() returns the text ParseQuantity kept, so a non-canonical spelling is printed as written
    (_one({"limits": {"nvidia.com/gpu": "1.500"}}),
     'spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "1.500": must be an integer'),
    (_one({"requests": {"cpu": "02"}, "limits": {"cpu": "+1"}}),
     'spec.containers[0].resources.requests: Invalid value: "02": must be less than or equal to cpu limit of +1'),
    # the limits are checked before the requests, each name's errors together
    (_one({"requests": {"cpu": "2"}, "limits": {"cpu": "1", "nvidia.com/gpu": "0.5"}}),
     'spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "500m": must be an integer'),
])
def test_more_of_the_api_servers_refusals(spec: dict[str, Any], error: str) -> None:
    assert resource_refusal(stored_pod(_pod(spec))) == error


def _ports(*ports: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {"containers": [{"name": "c", "ports": list(ports)}], **spec}


@pytest.mark.parametrize(("spec", "error"), [
    (_ports({"containerPort": 80, "hostPort": 70000}),
     "spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive"),
    (_ports({"containerPort": 80, "hostPort": -1}),
     "spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive"),
    (_ports({"containerPort": 80}, {"containerPort": 0, "hostPort": 80}),
     "spec.containers[0].ports[1].containerPort: Required value"),
    (_ports({"hostPort": 80}), "spec.containers[0].ports[0].containerPort: Required value"),
    (_ports({"containerPort": 65536}),
     "spec.containers[0].ports[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive"),
    # a hostNetwork pod's hostPort is defaulted from its containerPort first: both are out of range
    (_ports({"containerPort": 70000}, hostNetwork=True),
     "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"),
    (_ports({"containerPort": 80, "hostPort": 80, "protocol": "tcp"}),
     'spec.containers[0].ports[0].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"'),
    (_ports({"containerPort": 80, "protocol": "<x>"}),
     'spec.containers[0].ports[0].protocol: Unsupported value: "\\u003cx\\u003e": supported values: "SCTP", '
     '"TCP", "UDP"'),
    # a container's ports come before its resources, and every container before the init containers
    ({"containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 99999}],
                      "resources": {"requests": {"nvidia.com/gpu": "1"}}}],
      "initContainers": [{"name": "s", "restartPolicy": "Always", "ports": [{"hostPort": 80}]}]},
     "spec.containers[0].ports[0].hostPort: Invalid value: 99999: must be between 1 and 65535, inclusive"),
    ({"containers": [{"name": "c", "resources": {"requests": {"nvidia.com/gpu": "1"}}}],
      "initContainers": [{"name": "s", "restartPolicy": "Always", "ports": [{"hostPort": 80}]}]},
     "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"),
    ({"containers": [{"name": "c"}], "initContainers": [{"name": "s", "restartPolicy": "Always",
                                                          "ports": [{"hostPort": 80}]}]},
     "spec.initContainers[0].ports[0].containerPort: Required value"),
])
def test_the_api_servers_port_refusal(spec: dict[str, Any], error: str) -> None:
    assert resource_refusal(stored_pod(_pod(spec))) == error


@pytest.mark.parametrize("spec", [
    _ports({"containerPort": 80, "hostPort": 0}, {"containerPort": 65535, "hostPort": 1, "protocol": "SCTP"}),
    _ports({"containerPort": 53, "protocol": "UDP"}, {"containerPort": 80, "protocol": ""}),  # "": TCP
    _ports({"containerPort": 80}, hostNetwork=True),
])
def test_ports_the_api_server_accepts(spec: dict[str, Any]) -> None:
    assert resource_refusal(stored_pod(_pod(spec))) is None


def test_explain_warns_of_an_out_of_range_host_port_and_explains_the_pod_as_written(tmp_path: Path) -> None:
    pod = _pod(_ports({"containerPort": 80, "hostPort": 70000}))
    code, out, err = _explain(tmp_path, [NODE], pod)
    assert code == 0
    assert err == (f"binpack-lint explain: warning: POD {tmp_path / 'pod.json'}: Pod default/p: "
                   "spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, "
                   "inclusive (the API server would refuse this pod; it is explained as written)\n")
    assert json.loads(out)["nodes"][0]["feasible"]


@pytest.mark.parametrize("spec", [
    _one({"requests": {"cpu": "1"}, "limits": {"cpu": "1"}}),
    _one({"requests": {"cpu": "500m"}, "limits": {"cpu": "1"}}),  # cpu and memory may be overcommitted
    _one({"limits": {"nvidia.com/gpu": "2"}}),  # the limit becomes the request
    _one({"requests": {"nvidia.com/gpu": "2"}, "limits": {"nvidia.com/gpu": "2000m"}}),
    _one({"requests": {"cpu": "1.0005"}, "limits": {"cpu": "1001m"}}),  # compared after milli rounding
    _one({"requests": {"example.kubernetes.io/thing": "1"}}),  # a kubernetes.io name is native
    {"resources": {"requests": {"cpu": "2"}},
     "containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}}}],
     "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2"}}}]},
    # init containers' limits are not compared with the pod-level limit
    {"resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "1"}},
     "containers": [{"name": "a", "resources": {"requests": {"cpu": "500m"}}}],
     "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "500m"}, "limits": {"cpu": "2"}}}]},
    _one({"limits": {"hugepages-2Mi": "4Mi", "cpu": "1"}, "requests": {"ephemeral-storage": "1Gi"}}),
    _one({"limits": {"example.com/gpu": "1", "kubernetes.io/thing": "1"}}),
])
def test_pods_the_api_server_accepts(spec: dict[str, Any]) -> None:
    assert resource_refusal(stored_pod(_pod(spec))) is None


def _explain(tmp_path: Path, state: list[dict[str, Any]], pod: dict[str, Any]) -> tuple[int, str, str]:
    (tmp_path / "state.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": state}))
    (tmp_path / "pod.json").write_text(json.dumps(pod))
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(tmp_path / "state.json"), "--pod", str(tmp_path / "pod.json"),
                 "-f", "json"], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_explain_warns_in_one_line_and_explains_the_pod_as_written(tmp_path: Path) -> None:
    pod = _pod(_one({"requests": {"nvidia.com/gpu": "1", "cpu": "1"}}))
    code, out, err = _explain(tmp_path, [NODE], pod)
    assert code == 0
    assert err == (f"binpack-lint explain: warning: POD {tmp_path / 'pod.json'}: Pod default/p: "
                   "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable "
                   "resources (the API server would refuse this pod; it is explained as written)\n")
    (node,) = json.loads(out)["nodes"]
    assert node["feasible"] and {r["name"]: r["podRequest"] for r in node["resources"]}["cpu"] == 1000


def test_a_valid_pod_gets_no_warning(tmp_path: Path) -> None:
    code, _out, err = _explain(tmp_path, [NODE], _pod(_one({"requests": {"cpu": "1"}, "limits": {"cpu": "2"}})))
    assert (code, err) == (0, "")


def test_a_resource_name_yaml_reads_as_a_number_is_checked_as_its_text(tmp_path: Path) -> None:
    """kubectl sends the key as JSON text ("1"), which is a qualified name but not a standard resource; the
    pod-level list with such a key must not stop explain either."""
    (tmp_path / "state.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [NODE]}))
    (tmp_path / "pod.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n"
                                       "  resources: {limits: {1: '1'}}\n  containers:\n  - name: c\n"
                                       "    resources: {requests: {1: '1'}}\n")
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(tmp_path / "state.json"), "--pod", str(tmp_path / "pod.yaml")],
                out=out, err=err)
    assert code == 0
    assert err.getvalue() == (f"binpack-lint explain: warning: POD {tmp_path / 'pod.yaml'}: Pod default/p: "
                              'spec.containers[0].resources.requests[1]: Invalid value: "1": must be a standard '
                              "resource type or fully qualified (the API server would refuse this pod; it is "
                              "explained as written)\n")
