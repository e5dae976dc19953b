"""The scheduler models the pod scores are predicted with, loaded from config files and reloaded on change.

``--scheduler-config`` (a KubeSchedulerConfiguration; none = kube-scheduler's defaults)
and ``--volcano-config`` (a volcano-scheduler.conf; none = no Volcano scoring) are read
with the linter's own loader, so the webhook scores with exactly the effective config
the linter validated. Files are usually ConfigMap mounts that the kubelet swaps
atomically: each ``current()`` stats them and rebuilds a model when the file changed.
A file that fails to load at start-up stops the server (``ModelLoadError``); one that
becomes bad later is reported in the log and the last good model stays in use.

A gunicorn worker builds its models after the server has started, and a worker (re)started while the
file is bad has no last good model: with ``strict=False`` it starts without one, ``missing()`` names
the files still to load (trying each again when it changes), and the worker waits for them before it
takes connections (``webhook.server.wsgi.wait_for_models``) instead of failing to boot, which would
make gunicorn stop the whole server, healthy workers included.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from dataclasses import dataclass

from linter.engine import load_scheduler_model
from linter.findings import Severity
from linter.model import KubeSchedulerModel, SchedulerModel, VolcanoModel, default_kube_scheduler_model
from linter.settings import LintSettings
from linter.textfile import TextFileError, decode, read_bytes

log = logging.getLogger(__name__)

MAX_CONFIG_BYTES = 10 * 1024 * 1024


class ModelLoadError(ValueError):
    """A scheduler config file cannot be turned into a model; the message names the file and why."""


@dataclass
class _Watched:
    path: str
    want: type[KubeSchedulerModel] | type[VolcanoModel]
    signature: tuple[int, int, int] = (0, 0, 0)
    digest: str = ""
    model: SchedulerModel | None = None


class SchedulerModels:
    """Thread-safe holder of the current (kube-scheduler model, Volcano model or None)."""

    def __init__(self, scheduler_config: str | None = None, volcano_config: str | None = None,
                 scheduler_build: str = "kube-scheduler", *, strict: bool = True) -> None:
        self._lock = threading.Lock()
        self._build = scheduler_build
        self._kube_default = default_kube_scheduler_model()
        self._kube = _Watched(scheduler_config, KubeSchedulerModel) if scheduler_config else None
        self._volcano = _Watched(volcano_config, VolcanoModel) if volcano_config else None
        self._static: tuple[KubeSchedulerModel, VolcanoModel | None] | None = None
        for watched in (self._kube, self._volcano):
            if watched is not None:
                _refresh(watched, initial=strict, build=scheduler_build)

    @classmethod
    def static(cls, kube: KubeSchedulerModel | None = None, volcano: VolcanoModel | None = None) -> SchedulerModels:
        """Fixed models (tests, benchmarks): never reloaded."""
        models = cls()
        models._static = (kube or default_kube_scheduler_model(), volcano)
        return models

    def current(self) -> tuple[KubeSchedulerModel, VolcanoModel | None]:
        if self._static is not None:
            return self._static
        with self._lock:
            kube: SchedulerModel | None = self._kube_default
            volcano: SchedulerModel | None = None
            if self._kube is not None:
                _refresh(self._kube, initial=False, build=self._build)
                kube = self._kube.model
            if self._volcano is not None:
                _refresh(self._volcano, initial=False, build=self._build)
                volcano = self._volcano.model
        for watched, model in ((self._kube, kube), (self._volcano, volcano)):
            if watched is not None and model is None:  # strict=False and never loaded: not serving yet
                raise ModelLoadError(f"{watched.path}: no usable scheduler configuration loaded yet")
        assert isinstance(kube, KubeSchedulerModel)
        assert volcano is None or isinstance(volcano, VolcanoModel)
        return kube, volcano

    def missing(self) -> list[str]:
        """The config files with no model yet (only with ``strict=False``), each tried again if it changed."""
        if self._static is not None:
            return []
        with self._lock:
            out = []
            for watched in (self._kube, self._volcano):
                if watched is not None and watched.model is None:
                    _refresh(watched, initial=False, build=self._build)
                    if watched.model is None:
                        out.append(watched.path)
            return out


def load_model(path: str, want: type[KubeSchedulerModel] | type[VolcanoModel],
               build: str = "kube-scheduler") -> tuple[SchedulerModel, str]:
    """Read and load one config file for the scheduler ``build``; returns (model, digest) or raises ModelLoadError."""
    try:
        raw = read_bytes(path, MAX_CONFIG_BYTES)
        text = decode(raw)
    except TextFileError as exc:
        raise ModelLoadError(f"{path}: {exc.reason}") from None
    model, findings = load_scheduler_model(text, path, LintSettings(scheduler=build))
    if model is None:
        errors = [f for f in findings if f.severity is Severity.ERROR] or findings
        if not errors:
            raise ModelLoadError(f"{path}: no scheduler configuration found")
        first = errors[0]
        message = " ".join(first.message.split())
        raise ModelLoadError(f"{path}:{first.line}:{first.column}: [{first.rule}] {message}")
    if not isinstance(model, want):
        expected = "a KubeSchedulerConfiguration" if want is KubeSchedulerModel else "a Volcano scheduler conf"
        raise ModelLoadError(f"{path}: expected {expected}, found a {type(model).__name__}")
    return model, hashlib.sha256(raw).hexdigest()


def _signature(path: str) -> tuple[int, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, 0, 0)
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _refresh(watched: _Watched, *, initial: bool, build: str = "kube-scheduler") -> None:
    signature = _signature(watched.path)
    if not initial and signature == watched.signature:
        return
    watched.signature = signature
    try:
        model, digest = load_model(watched.path, watched.want, build)
    except ModelLoadError as exc:
        if initial:
            raise
        if watched.model is None:
            log.error("scheduler config not usable (no model yet; this worker waits for a good one): %s", exc)
        else:
            log.error("scheduler config reload failed, keeping the previous model: %s", exc)
        return
    if digest != watched.digest:
        if not initial:
            if watched.model is None:
                log.info("scheduler config %s loaded", watched.path)
            else:
                log.info("scheduler config %s changed: model reloaded", watched.path)
        watched.model, watched.digest = model, digest
