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
    ({"resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}, "containers": [{"name": "a"}]},
     'spec.resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1'),
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
