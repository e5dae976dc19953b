"""Which resource names kube-apiserver 1.36 accepts in a Pod, with its field errors (``pkg/apis/core/validation``).

A container's ``limits`` and ``requests`` (``validateContainerResourceName``) and the pod-level
``spec.resources`` (``validatePodResourceName``) both start with ``validateResourceName``: the name
must be a qualified name (``IsQualifiedName``; each of its messages is an error), and a name without
a ``/`` must be a standard resource (``cpu``, ``requests.cpu``, ``pods``, ``hugepages-*``, ...). Then:

* a container name without a ``/`` must be ``cpu``, ``memory``, ``ephemeral-storage`` or
  ``hugepages-*``; one with a ``/`` outside ``kubernetes.io/`` must be an extended resource name
  (``IsExtendedResourceName``);
* a pod-level name that passed ``validateResourceName`` must be ``cpu``, ``memory`` or
  ``hugepages-*``, or it is ``Unsupported value``.

The bad value is printed as ``encoding/json`` quotes a string (the API server marshals a
``ResourceName``, which is not a plain ``string`` to its error printer).
"""

from __future__ import annotations

from linter.k8snames import is_extended_resource_name, qualified_name_errors

__all__ = ["container_name_errors", "go_json_quote", "is_integer_resource", "is_overcommit_allowed",
           "pod_level_name_errors"]

_STANDARD = frozenset({
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
    "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
    "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
    "services.nodeports", "services.loadbalancers",
})
_INTEGER = frozenset({"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
                      "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"})
_JSON_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def go_json_quote(text: str) -> str:
    """``json.Marshal`` of a string: HTML-safe, so ``<``, ``>``, ``&`` and U+2028/U+2029 are ``\\u`` escapes."""
    out = []
    for ch in text:
        if ch in _JSON_SHORT:
            out.append(_JSON_SHORT[ch])
        elif ord(ch) < 0x20 or ch in "<>&\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _native(name: str) -> bool:
    """``IsNativeResource``: no domain, or a ``kubernetes.io/`` one."""
    return "/" not in name or "kubernetes.io/" in name


def is_overcommit_allowed(name: str) -> bool:
    """``IsOvercommitAllowed``: a native resource that is not hugepages (so a request may be below its limit)."""
    return _native(name) and not name.startswith("hugepages-")


def is_integer_resource(name: str) -> bool:
    """``IsIntegerResourceName``: object counts and extended resources, whose amounts must be whole."""
    return name in _INTEGER or is_extended_resource_name(name)


def _invalid(path: str, name: str, detail: str) -> str:
    return f"{path}: Invalid value: {go_json_quote(name)}: {detail}"


def _resource_name_errors(name: str, path: str) -> list[str]:
    """``validateResourceName``."""
    errors = [_invalid(path, name, msg) for msg in qualified_name_errors(name)]
    if errors:
        return errors
    if "/" not in name and name not in _STANDARD and not name.startswith(("hugepages-", "requests.hugepages-")):
        return [_invalid(path, name, "must be a standard resource type or fully qualified")]
    return []


def container_name_errors(name: str, path: str) -> list[str]:
    """``validateContainerResourceName``: its errors for ``name`` at ``path`` (``...limits[name]``), in order."""
    errors = _resource_name_errors(name, path)
    if "/" not in name:
        if name not in ("cpu", "memory", "ephemeral-storage") and not name.startswith("hugepages-"):
            errors.append(_invalid(path, name, "must be a standard resource for containers"))
    elif not _native(name) and not is_extended_resource_name(name):
        errors.append(_invalid(path, name, "doesn't follow extended resource name standard"))
    return errors


def pod_level_name_errors(name: str, path: str) -> list[str]:
    """``validatePodResourceName``: ``validateResourceName``'s errors, else whether pod level supports ``name``."""
    errors = _resource_name_errors(name, path)
    if errors:
        return errors
    if name not in ("cpu", "memory") and not name.startswith("hugepages-"):
        # sets.List of SupportedPodLevelResources(): sorted
        return [f'{path}: Unsupported value: {go_json_quote(name)}: supported values: "cpu", "hugepages-", "memory"']
    return []
