"""The webhook's one door to the apiserver: the only module that imports ``kubernetes`` (an import contract).

Everything else in the webhook speaks plain dicts and the project's own exceptions: the cluster cache gets
raw list pages and watch streams (``KubeSource``), the globalDefault claim gets a Lease (``LeaseClient``), and
``binpack-webhook certs`` gets Secrets and webhook configurations as raw JSON (``read_object`` and friends).
An apiserver error leaves this module as ``ApiError`` (status, reason, the Status message), never as the
client's own exception type. Clients are built on first use, i.e. inside a gunicorn worker after fork.
"""

from __future__ import annotations

import contextlib
import copy
import json
import socket
import threading
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from typing import Any

from kubernetes import client, config
from kubernetes.client.exceptions import ApiException
from kubernetes.watch.watch import iter_resp_lines

from webhook.cluster.reflector import Expired, Forbidden, MalformedEvent, Page, SourceError
from webhook.errors import one_line

ClientConfiguration = client.Configuration
ApiClient = client.ApiClient

CONNECT_TIMEOUT = 5.0  # seconds; a loopback/in-cluster apiserver answers a TCP connect far faster
LIST_READ_TIMEOUT = 60.0  # seconds per LIST page; a 500-item page is small
WATCH_READ_MARGIN = 15  # seconds a watch may stay silent past its server-side timeout before we drop it
LIVE_READ_TIMEOUT = 2.0  # seconds for a GET made while the apiserver waits on our admission answer


class ClientConfigError(Exception):
    """The kubeconfig / in-cluster configuration cannot be loaded (one-line message)."""


def load_client_configuration(kubeconfig: str | None) -> client.Configuration:
    """``kubeconfig`` if given, else the in-cluster service account, else ``$KUBECONFIG``/~/.kube/config."""
    cfg = client.Configuration()
    try:
        if kubeconfig:
            config.load_kube_config(config_file=kubeconfig, client_configuration=cfg)  # type: ignore[no-untyped-call]
            return cfg
        try:
            config.load_incluster_config(client_configuration=cfg)  # type: ignore[no-untyped-call]
        except config.ConfigException:
            config.load_kube_config(client_configuration=cfg)  # type: ignore[no-untyped-call]
    except (config.ConfigException, OSError, ValueError, TypeError, KeyError) as exc:
        where = kubeconfig or "in-cluster config or $KUBECONFIG"
        raise ClientConfigError(f"{where}: cannot load Kubernetes client configuration: {exc}") from None
    return cfg


def _status_of(body: str | bytes | None) -> Mapping[str, Any]:
    try:
        status = json.loads(body or b"{}")
    except ValueError:
        return {}
    return status if isinstance(status, dict) else {}


def _is_gone(code: object, reason: object) -> bool:
    return code == 410 or reason in ("Expired", "Gone")


class KubeSource:
    """List pages and watch streams of one kind, read raw through the kubernetes client's transport."""

    def __init__(self, kind: str, list_fn: Callable[..., Any], watch_timeout: int,
                 read_margin: float = WATCH_READ_MARGIN) -> None:
        self.kind, self._read_margin = kind, read_margin
        self._list_fn = list_fn
        self._watch_timeout = watch_timeout
        self._response: Any = None
        self._interrupted = False
        self._response_lock = threading.Lock()  # interrupt() may run while watch() is still connecting

    def list_page(self, limit: int, continue_token: str | None) -> Page:
        try:
            resp = self._list_fn(limit=limit, _continue=continue_token, _preload_content=False,
                                 _request_timeout=(CONNECT_TIMEOUT, LIST_READ_TIMEOUT))
            body = json.loads(resp.data)
            items = body.get("items", ()) if isinstance(body, dict) else ()
            if items is None:  # Go's nil slice: an empty list
                items = []
            if not isinstance(items, list):  # never "no items": applying it would delete the whole kind
                raise SourceError(f"list {self.kind}: the answer has no items list")
            meta = body.get("metadata") or {}
            return Page(items, str(meta.get("resourceVersion") or ""), meta.get("continue") or None)
        except ApiException as exc:
            status = _status_of(exc.body)
            if _is_gone(exc.status, status.get("reason")):
                raise Expired(f"HTTP 410 on list: {status.get('message', exc.reason)}") from None
            failure = Forbidden if exc.status == 403 else SourceError
            raise failure(f"list {self.kind}: HTTP {exc.status} {exc.reason}") from None
        except SourceError:
            raise
        except Exception as exc:
            raise SourceError(f"list {self.kind}: {exc}") from None

    def watch(self, resource_version: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
        try:
            response = self._list_fn(
                watch=True, allow_watch_bookmarks=True, resource_version=resource_version,
                timeout_seconds=self._watch_timeout, _preload_content=False,
                # the read timeout outlives the server-side timeout, so only a hung connection trips it
                _request_timeout=(CONNECT_TIMEOUT, self._watch_timeout + self._read_margin),
            )
        except ApiException as exc:
            if _is_gone(exc.status, _status_of(exc.body).get("reason")):
                raise Expired(f"HTTP 410 on watch from {resource_version}") from None
            raise SourceError(f"watch {self.kind}: HTTP {exc.status} {exc.reason}") from None
        except Exception as exc:
            raise SourceError(f"watch {self.kind}: {exc}") from None
        with self._response_lock:
            self._response = response
            if self._interrupted:
                self._shutdown(response)
        return self._events(response)

    def _events(self, resp: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
        try:
            for line in iter_resp_lines(resp):  # type: ignore[no-untyped-call]
                if not line.strip():
                    continue
                try:
                    event = json.loads(line)
                    event_type, obj = event["type"], event["object"]
                except (ValueError, KeyError, TypeError):
                    raise MalformedEvent(f"watch {self.kind}: undecodable event {line[:80]!r}") from None
                if event_type == "ERROR":  # a Status inside a 200 stream; 410 means relist
                    obj = obj if isinstance(obj, dict) else {}
                    if _is_gone(obj.get("code"), obj.get("reason")):
                        raise Expired(str(obj.get("message", "watch expired")))
                    raise SourceError(f"watch {self.kind}: ERROR event {obj.get('code')} {obj.get('reason')}")
                yield event_type, obj
        except (Expired, SourceError, MalformedEvent):
            raise
        except Exception as exc:
            raise SourceError(f"watch {self.kind}: stream broke: {exc}") from None
        finally:
            with self._response_lock:
                self._response = None
            resp.release_conn()

    def interrupt(self) -> None:
        with self._response_lock:
            self._interrupted = True
            if self._response is not None:
                self._shutdown(self._response)

    @staticmethod
    def _shutdown(response: Any) -> None:
        conn = getattr(response, "connection", None)
        sock = getattr(conn, "sock", None)
        if sock is not None:  # shutting down the socket wakes the thread blocked in recv()
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def kind_sources(configuration: ClientConfiguration, watch_timeout: int,
                 read_margin: float = WATCH_READ_MARGIN) -> list[KubeSource]:
    """The list+watch sources of the cache, in its order: nodes, pods (all namespaces), priorityclasses,
    poddisruptionbudgets (all namespaces, policy/v1)."""
    api = client.ApiClient(configuration)
    core, scheduling, policy = client.CoreV1Api(api), client.SchedulingV1Api(api), client.PolicyV1Api(api)
    return [
        KubeSource("nodes", core.list_node, watch_timeout, read_margin),
        KubeSource("pods", core.list_pod_for_all_namespaces, watch_timeout, read_margin),
        KubeSource("priorityclasses", scheduling.list_priority_class, watch_timeout, read_margin),
        KubeSource("poddisruptionbudgets", policy.list_pod_disruption_budget_for_all_namespaces, watch_timeout,
                   read_margin),
    ]


def runtime_class_source(configuration: ClientConfiguration, watch_timeout: int) -> KubeSource:
    """RuntimeClasses (node.k8s.io/v1): not in the cache, whose pods come admitted; ``kubectl binpack`` lists them."""
    return KubeSource("runtimeclasses", client.NodeV1Api(client.ApiClient(configuration)).list_runtime_class,
                      watch_timeout)


def spreading_sources(configuration: ClientConfiguration, watch_timeout: int) -> list[KubeSource]:
    """What explain's PodTopologySpread and InterPodAffinity read besides the cache's kinds: Services,
    ReplicaSets, StatefulSets and ReplicationControllers (a pod's default spreading selector) and Namespaces
    (namespaceSelector terms). ``kubectl binpack`` lists them; the webhook does not watch them."""
    api = client.ApiClient(configuration)
    core, apps = client.CoreV1Api(api), client.AppsV1Api(api)
    return [
        KubeSource("services", core.list_service_for_all_namespaces, watch_timeout),
        KubeSource("replicasets", apps.list_replica_set_for_all_namespaces, watch_timeout),
        KubeSource("statefulsets", apps.list_stateful_set_for_all_namespaces, watch_timeout),
        KubeSource("replicationcontrollers", core.list_replication_controller_for_all_namespaces, watch_timeout),
        KubeSource("namespaces", core.list_namespace, watch_timeout),
    ]


def read_priority_class(configuration: ClientConfiguration, name: str,
                        timeout: float = LIVE_READ_TIMEOUT) -> dict[str, Any] | None:
    """GET one PriorityClass as raw JSON (None on 404); ``SourceError`` when the apiserver cannot answer within
    ``timeout`` seconds (one try: the caller's deadline is the whole budget)."""
    api = client.SchedulingV1Api(client.ApiClient(tried_once(configuration)))
    try:
        response: Any = api.read_priority_class(name, _preload_content=False,
                                                _request_timeout=(min(timeout, CONNECT_TIMEOUT), timeout))
        found = json.loads(response.data)
    except ApiException as exc:
        if exc.status == 404:
            return None
        raise SourceError(f"get priorityclass {name}: HTTP {exc.status} {exc.reason}") from None
    except Exception as exc:
        raise SourceError(f"get priorityclass {name}: {one_line(exc)}") from None
    if not isinstance(found, dict):
        raise SourceError(f"get priorityclass {name}: the answer is not a JSON object")
    return found


def tried_once(configuration: ClientConfiguration) -> ClientConfiguration:
    """A copy whose requests are sent once. By default urllib3 retries a GET that timed out (up to 3 times,
    each with the whole timeout), so a read bounded by a review's deadline could take four times as long, and
    a retry can get a different answer; the webhook's callers retry themselves where that is safe."""
    once = copy.deepcopy(configuration)
    once.retries = False
    return once


class ApiError(Exception):
    """The apiserver answered a request with an error status."""

    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status, self.reason, self.message = status, reason, message


def _api_error(exc: ApiException) -> ApiError:
    reason = str(exc.reason or "")
    return ApiError(int(exc.status or 0), reason, str(_status_of(exc.body).get("message") or reason))


class LeaseClient:
    """One coordination.k8s.io/v1 Lease: read, create, replace (conditional on its resourceVersion)."""

    def __init__(self, configuration: ClientConfiguration, namespace: str, name: str) -> None:
        self._configuration, self.namespace, self.name = configuration, namespace, name
        self._api: client.CoordinationV1Api | None = None

    def _coordination(self) -> client.CoordinationV1Api:
        if self._api is None:  # built on first use, i.e. inside the worker after fork
            self._api = client.CoordinationV1Api(client.ApiClient(tried_once(self._configuration)))
        return self._api

    def read(self, timeout: float | None = None) -> tuple[str, str, datetime | None] | None:
        """(holder, resourceVersion, acquireTime), or None when the Lease does not exist. Each call here takes
        at most ``timeout`` seconds (and ``CONNECT_TIMEOUT``)."""
        try:
            lease = self._coordination().read_namespaced_lease(self.name, self.namespace,
                                                               _request_timeout=_lease_timeout(timeout))
        except ApiException as exc:
            if exc.status == 404:
                return None
            raise _api_error(exc) from None
        spec, meta = lease.spec, lease.metadata
        return ((spec.holder_identity if spec else None) or "", str(meta.resource_version if meta else ""),
                spec.acquire_time if spec else None)

    def _body(self, holder: str, acquired: datetime, resource_version: str | None) -> client.V1Lease:
        return client.V1Lease(
            metadata=client.V1ObjectMeta(name=self.name, namespace=self.namespace,
                                         resource_version=resource_version),
            spec=client.V1LeaseSpec(holder_identity=holder, acquire_time=acquired),
        )

    def create(self, holder: str, acquired: datetime, timeout: float | None = None) -> None:
        try:
            self._coordination().create_namespaced_lease(
                self.namespace, self._body(holder, acquired, None), _request_timeout=_lease_timeout(timeout))
        except ApiException as exc:
            raise _api_error(exc) from None

    def replace(self, holder: str, acquired: datetime, expected_resource_version: str,
                timeout: float | None = None) -> None:
        try:
            self._coordination().replace_namespaced_lease(
                self.name, self.namespace, self._body(holder, acquired, expected_resource_version),
                _request_timeout=_lease_timeout(timeout))
        except ApiException as exc:
            raise _api_error(exc) from None


def _lease_timeout(timeout: float | None) -> float:
    """A Lease request's whole-request timeout: ``CONNECT_TIMEOUT``, or less when the caller has less left."""
    return CONNECT_TIMEOUT if timeout is None else min(timeout, CONNECT_TIMEOUT)


def service_account_client(kubeconfig: str | None) -> ApiClient:
    """A client from ``kubeconfig``, or from the pod's service account when None (no other fallback)."""
    try:
        configuration = client.Configuration()
        if kubeconfig:
            config.load_kube_config(config_file=kubeconfig, client_configuration=configuration)  # type: ignore[no-untyped-call]
        else:
            config.load_incluster_config(client_configuration=configuration)  # type: ignore[no-untyped-call]
        return client.ApiClient(configuration)
    except (config.ConfigException, OSError) as exc:
        raise ClientConfigError(f"cannot load Kubernetes client configuration: {exc}") from None


# kind -> (read, create, replace, patch) method names; raw JSON in and out, because the generated models drop
# fields they do not know when an object is written back.
_METHODS = {
    "Secret": ("CoreV1Api", "read_namespaced_secret", "create_namespaced_secret", "replace_namespaced_secret", ""),
    "MutatingWebhookConfiguration": ("AdmissionregistrationV1Api", "read_mutating_webhook_configuration", "", "",
                                     "patch_mutating_webhook_configuration"),
    "ValidatingWebhookConfiguration": ("AdmissionregistrationV1Api", "read_validating_webhook_configuration", "",
                                       "", "patch_validating_webhook_configuration"),
}


def _method(api: ApiClient, kind: str, which: int) -> Any:
    group, *names = _METHODS[kind]
    return getattr(getattr(client, group)(api), names[which])


def read_object(api: ApiClient, kind: str, name: str, namespace: str | None = None) -> dict[str, Any] | None:
    """The object as JSON, or None when it does not exist."""
    args = (name, namespace) if namespace is not None else (name,)
    try:
        response: Any = _method(api, kind, 0)(*args, _preload_content=False)
    except ApiException as exc:
        if exc.status == 404:
            return None
        raise _api_error(exc) from None
    found: dict[str, Any] = json.loads(response.data)
    return found


def write_secret(api: ApiClient, namespace: str, name: str, body: Mapping[str, Any], *, create: bool) -> None:
    """Create the Secret, or replace it (conditional on the resourceVersion inside ``body``)."""
    model = client.V1Secret.from_dict(dict(body))
    assert model is not None  # from_dict returns None only for a None argument
    try:
        if create:
            _method(api, "Secret", 1)(namespace, model, _preload_content=False)
        else:
            _method(api, "Secret", 2)(name, namespace, model, _preload_content=False)
    except ApiException as exc:
        raise _api_error(exc) from None


def json_patch(api: ApiClient, kind: str, name: str, ops: list[dict[str, Any]]) -> None:
    """Apply an RFC 6902 JSON Patch to a cluster-scoped object (the webhook configurations)."""
    try:
        _method(api, kind, 3)(name, ops, _content_type="application/json-patch+json", _preload_content=False)
    except ApiException as exc:
        raise _api_error(exc) from None
