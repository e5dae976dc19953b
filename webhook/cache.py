"""Cluster cache: Nodes, Pods and PriorityClasses mirrored from the apiserver (the only kubernetes importer).

``ClusterCache`` implements ``webhook.view.ClusterView``. Three ``Reflector`` threads (see
``webhook.reflector``) list+watch their kind through the real ``kubernetes`` client and feed a
``ClusterState`` (per-node compact contributions, never whole Pod objects) and a PriorityClass map of
``PriorityClassInfo``. The client's own ``SharedInformer`` is not used: it deserializes every object into
generated models and keeps them whole, and it lists without pagination, which at 150,000 pods costs
minutes and gigabytes. Here lists and watches are read raw (``_preload_content=False``) and decoded with
``json`` only. One ``RLock`` guards all state; ``scheduling_state()`` holds it while the caller scores.

Start the cache in each gunicorn worker after fork (threads and sockets do not survive ``fork``).
``KubeLeaseStore`` (the coordination.k8s.io Lease behind ``webhook.lease``) lives here for the same reason.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from typing import Any

from kubernetes import client, config
from kubernetes.client.exceptions import ApiException
from kubernetes.watch.watch import iter_resp_lines

from linter.scoring.cluster import ClusterState
from webhook.lease import LeaseConflict, LeaseRecord, LeaseUnavailable
from webhook.reflector import DEFAULT_BACKOFF, Backoff, Expired, KindStore, Page, Reflector, SourceError
from webhook.stores import NodeNameStore, PodKeyStore, PriorityClassStore
from webhook.view import PriorityClassInfo

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5.0  # seconds; a loopback/in-cluster apiserver answers a TCP connect far faster
LIST_READ_TIMEOUT = 60.0  # seconds per LIST page; a 500-item page is small


class CacheConfigError(Exception):
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
        raise CacheConfigError(f"{where}: cannot load Kubernetes client configuration: {exc}") from None
    return cfg


def _status_of(body: str | bytes | None) -> Mapping[str, Any]:
    try:
        status = json.loads(body or b"{}")
    except ValueError:
        return {}
    return status if isinstance(status, dict) else {}


def _is_gone(code: object, reason: object) -> bool:
    return code == 410 or reason in ("Expired", "Gone")


class _KubeSource:
    """List pages and watch streams of one kind, read raw through the kubernetes client's transport."""

    def __init__(self, kind: str, list_fn: Callable[..., Any], watch_timeout: int) -> None:
        self.kind = kind
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
            meta = body.get("metadata") or {}
            return Page(body.get("items") or [], str(meta.get("resourceVersion") or ""),
                        meta.get("continue") or None)
        except ApiException as exc:
            status = _status_of(exc.body)
            if _is_gone(exc.status, status.get("reason")):
                raise Expired(f"HTTP 410 on list: {status.get('message', exc.reason)}") from None
            raise SourceError(f"list {self.kind}: HTTP {exc.status} {exc.reason}") from None
        except Exception as exc:
            raise SourceError(f"list {self.kind}: {exc}") from None

    def watch(self, resource_version: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
        try:
            response = self._list_fn(
                watch=True, allow_watch_bookmarks=True, resource_version=resource_version,
                timeout_seconds=self._watch_timeout, _preload_content=False,
                # the read timeout outlives the server-side timeout, so only a dead connection trips it
                _request_timeout=(CONNECT_TIMEOUT, self._watch_timeout + 30),
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
                    raise SourceError(f"watch {self.kind}: undecodable event {line[:80]!r}") from None
                if event_type == "ERROR":  # a Status inside a 200 stream; 410 means relist
                    obj = obj if isinstance(obj, dict) else {}
                    if _is_gone(obj.get("code"), obj.get("reason")):
                        raise Expired(str(obj.get("message", "watch expired")))
                    raise SourceError(f"watch {self.kind}: ERROR event {obj.get('code')} {obj.get('reason')}")
                yield event_type, obj
        except (Expired, SourceError):
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


class ClusterCache:
    """The ClusterView over a live cluster. ``start()`` once per process (after fork), ``stop()`` to end."""

    def __init__(
        self, client_configuration: client.Configuration, *, page_size: int = 500, watch_timeout: int = 300,
        backoff: Backoff = DEFAULT_BACKOFF, unhealthy_after: float = 30.0, freeze_gc: bool = False,
    ) -> None:
        self._freeze_gc = freeze_gc  # process-wide effect: only for the one cache of a server worker
        self._configuration = client_configuration
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._state = ClusterState()
        self._nodes, self._pods = NodeNameStore(self._state), PodKeyStore(self._state)
        self._classes = PriorityClassStore()
        self._page_size, self._watch_timeout = page_size, watch_timeout
        self._backoff, self._unhealthy_after = backoff, unhealthy_after
        self._reflectors: list[Reflector] = []
        self._threads: list[threading.Thread] = []
        self.started_at: float | None = None
        self.synced_after: float | None = None  # seconds from start() to the first complete list of all kinds

    @property
    def client_configuration(self) -> client.Configuration:
        return self._configuration

    @classmethod
    def from_kubeconfig(cls, kubeconfig: str | None, **options: Any) -> ClusterCache:
        return cls(load_client_configuration(kubeconfig), **options)

    def start(self) -> None:
        api = client.ApiClient(self._configuration)
        core, scheduling = client.CoreV1Api(api), client.SchedulingV1Api(api)
        sources: list[tuple[_KubeSource, KindStore]] = [
            (_KubeSource("nodes", core.list_node, self._watch_timeout), self._nodes),
            (_KubeSource("pods", core.list_pod_for_all_namespaces, self._watch_timeout), self._pods),
            (_KubeSource("priorityclasses", scheduling.list_priority_class, self._watch_timeout), self._classes),
        ]
        self.started_at = time.monotonic()
        for source, store in sources:
            reflector = Reflector(source, store, self._lock, self._stop, page_size=self._page_size,
                                  backoff=self._backoff, on_synced=self._note_synced,
                                  on_page=self._after_page if self._freeze_gc else None)
            thread = threading.Thread(target=reflector.run, name=f"cache-{source.kind}", daemon=True)
            self._reflectors.append(reflector)
            self._threads.append(thread)
            thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for reflector in self._reflectors:
            reflector.source.interrupt()
        for thread in self._threads:
            thread.join(timeout)

    def wait_synced(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        for reflector in self._reflectors:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not reflector.synced.wait(left):
                return False
        return self.is_synced()

    # ClusterView

    def priority_classes(self) -> Mapping[str, PriorityClassInfo]:
        return self._classes.current

    @contextlib.contextmanager
    def scheduling_state(self) -> Iterator[ClusterState]:
        with self._lock:
            yield self._state

    def is_synced(self) -> bool:
        return len(self._reflectors) == 3 and all(r.synced.is_set() for r in self._reflectors)

    def _note_synced(self) -> None:
        with self._lock:
            if self.synced_after is not None or not self.is_synced() or self.started_at is None:
                return
            self.synced_after = time.monotonic() - self.started_at
            counts = self.stats()
            if self._freeze_gc:
                # the synced state is long-lived; moving it out of the cyclic GC's generations keeps
                # full collections from rescanning ~all cached objects in the middle of a request
                gc.collect()
                gc.freeze()
        log.info("cluster cache synced in %.2fs: %d nodes, %d pods, %d priorityclasses", self.synced_after,
                 counts["nodes"], counts["pods"], counts["priorityclasses"])

    def _after_page(self) -> None:
        if self.synced_after is None:
            # During the first sync the cached state only grows. Without this, every full collection
            # rescans all of it (a third of the sync time at 150,000 pods); frozen objects are still
            # freed by reference counting, and the JSON pages hold no reference cycles.
            gc.freeze()

    def is_healthy(self) -> bool:
        now = time.monotonic()
        return bool(self._threads) and all(t.is_alive() for t in self._threads) and all(
            r.failing_since is None or now - r.failing_since < self._unhealthy_after for r in self._reflectors
        )

    def stats(self) -> Mapping[str, float]:
        with self._lock:
            return {
                "nodes": len(self._nodes.keys()), "pods": len(self._pods.keys()),
                "priorityclasses": len(self._classes.current),
                "watch_restarts": sum(r.relists for r in self._reflectors),
                "synced": float(self.is_synced()),
            }

    def object_keys(self) -> Mapping[str, frozenset[str]]:
        """The names (pods: namespace/name) the cache currently holds, per kind; for diagnostics and tests."""
        with self._lock:
            return {"nodes": frozenset(self._nodes.keys()), "pods": frozenset(self._pods.keys()),
                    "priorityclasses": frozenset(self._classes.current)}


class KubeLeaseStore:
    """One coordination.k8s.io/v1 Lease read and written with resourceVersion optimistic concurrency."""

    def __init__(self, client_configuration: client.Configuration, namespace: str, name: str) -> None:
        self._configuration, self.namespace, self.name = client_configuration, namespace, name
        self._api: client.CoordinationV1Api | None = None

    def _coordination(self) -> client.CoordinationV1Api:
        if self._api is None:  # built on first use, i.e. inside the worker after fork
            self._api = client.CoordinationV1Api(client.ApiClient(self._configuration))
        return self._api

    def get(self) -> LeaseRecord | None:
        try:
            lease = self._coordination().read_namespaced_lease(self.name, self.namespace,
                                                               _request_timeout=CONNECT_TIMEOUT)
        except ApiException as exc:
            if exc.status == 404:
                return None
            raise LeaseUnavailable(f"lease {self.namespace}/{self.name}: HTTP {exc.status} {exc.reason}") from None
        except Exception as exc:
            raise LeaseUnavailable(f"lease {self.namespace}/{self.name}: {exc}") from None
        spec, meta = lease.spec, lease.metadata
        return LeaseRecord(holder=(spec.holder_identity if spec else None) or "",
                           resource_version=str(meta.resource_version if meta else ""),
                           acquired=spec.acquire_time if spec else None)

    def _body(self, holder: str, acquired: datetime, resource_version: str | None) -> client.V1Lease:
        return client.V1Lease(
            metadata=client.V1ObjectMeta(name=self.name, namespace=self.namespace,
                                         resource_version=resource_version),
            spec=client.V1LeaseSpec(holder_identity=holder, acquire_time=acquired),
        )

    def create(self, holder: str, acquired: datetime) -> None:
        self._write(lambda api: api.create_namespaced_lease(
            self.namespace, self._body(holder, acquired, None), _request_timeout=CONNECT_TIMEOUT))

    def replace(self, holder: str, acquired: datetime, expected_resource_version: str) -> None:
        self._write(lambda api: api.replace_namespaced_lease(
            self.name, self.namespace, self._body(holder, acquired, expected_resource_version),
            _request_timeout=CONNECT_TIMEOUT))

    def _write(self, call: Callable[[client.CoordinationV1Api], object]) -> None:
        try:
            call(self._coordination())
        except ApiException as exc:
            if exc.status == 409:  # AlreadyExists on create, Conflict on a stale resourceVersion
                raise LeaseConflict(f"lease {self.namespace}/{self.name} changed concurrently") from None
            raise LeaseUnavailable(f"lease {self.namespace}/{self.name}: HTTP {exc.status} {exc.reason}") from None
        except Exception as exc:
            raise LeaseUnavailable(f"lease {self.namespace}/{self.name}: {exc}") from None
