"""Composition root of the Flask app: ``create_app(settings, view, ...)``; nothing happens at import time.

The cluster view (the real ``ClusterCache`` or a ``StaticClusterView``), the
globalDefault claim and the scheduler models are passed in, so the same app runs
under gunicorn, in the Flask test client and in benchmarks. Every error the app can
produce is JSON; an unexpected exception is logged and answered with a JSON 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from webhook.admission.decide.configmaps import Linter
from webhook.admission.encode import error_body
from webhook.admission.ports import ClusterView, DefaultClassClaim
from webhook.admission.scheduler_models import SchedulerModels
from webhook.server.boundedlint import BoundedLinter
from webhook.server.decodegate import RESERVE, DecodeGate
from webhook.server.metrics import Metrics
from webhook.server.routes import EXTENSION, Deps, build_blueprint, json_response
from webhook.settings import Settings

log = logging.getLogger(__name__)


def create_app(
    settings: Settings,
    view: ClusterView,
    *,
    default_class_claim: DefaultClassClaim | None = None,
    scheduler_models: SchedulerModels | None = None,
    config_linter: Linter | None = None,
) -> Flask:
    """Build the app. Without ``scheduler_models`` the config files named in ``settings`` are loaded
    (``webhook.admission.scheduler_models.ModelLoadError`` if one is unusable). ConfigMaps are linted by
    ``config_linter``, by default in a child process bounded by the settings' lint budget (counted from each
    review's arrival, like its wait for room to decode: ``webhook.server.deadline``)."""
    app = Flask("webhook")
    # Werkzeug refuses (413) a body over the limit even before our own bounded read sees it.
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    models = scheduler_models or SchedulerModels(settings.scheduler_config, settings.volcano_config,
                                                     settings.scheduler_build)
    app.extensions[EXTENSION] = Deps(
        settings=settings, view=view, models=models, claim=default_class_claim, metrics=Metrics(view),
        lint_until=_lint_until(settings, config_linter),
        gate=DecodeGate(settings.max_body_bytes + RESERVE),
    )
    app.register_blueprint(build_blueprint(benchmark_routes=settings.benchmark_routes))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        code = exc.code or 500
        return json_response(error_body(exc.description or exc.name, None, code), code)

    @app.errorhandler(Exception)
    def internal_error(exc: Exception) -> Response:
        log.exception("unhandled error while answering a request")
        return json_response(error_body(f"internal error: {type(exc).__name__}", None, 500), 500)

    return app


def _lint_until(settings: Settings, config_linter: Linter | None) -> Callable[[float], Linter]:
    """The given linter whatever the deadline, else a child process bounded by the settings' lint budget,
    counted from each review's arrival."""
    if config_linter is not None:
        return lambda deadline: config_linter
    return BoundedLinter(settings.lint_timeout_ms / 1000.0, settings.lint_memory_mib, settings.scheduler_build).until
