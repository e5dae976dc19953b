"""One JSON object per log line, for the webhook's own logs and gunicorn's (wired in ``gunicorn_conf``).

Admission decisions are logged by ``webhook.routes`` with ``extra={"admission": {...}}`` (uid, kind,
operation, decision, latency); those fields become top-level keys of the line. Everything else gets
``message``, and ``exc`` when an exception is attached.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
        }
        admission = getattr(record, "admission", None)
        if isinstance(admission, dict):
            line.update(admission)
        else:
            line["message"] = record.getMessage()
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, separators=(",", ":"), ensure_ascii=False, default=str)


def logconfig_dict(level: str) -> dict[str, Any]:
    """``logging.config.dictConfig`` input: everything as JSON on stderr (the container log)."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "webhook.jsonlog.JsonFormatter"}},
        "handlers": {"json": handler},
        "root": {"level": level.upper(), "handlers": ["json"]},
        "loggers": {
            "gunicorn.error": {"level": level.upper(), "handlers": ["json"], "propagate": False},
            # the routes log every review with its decision; the access line would only repeat it
            "gunicorn.access": {"level": "WARNING", "handlers": ["json"], "propagate": False},
        },
    }
