"""One JSON object per log line, for the webhook's own logs and gunicorn's (wired in ``gunicorn_conf``).

Admission decisions are logged by ``webhook.server.routes`` with ``extra={"admission": {...}}`` (uid, kind,
operation, decision, latency); those fields become top-level keys of the line. Their message is a
``JsonLine``, rendered only if some other formatter asks for it, so each request is encoded once.
Everything else gets ``message``, and ``exc`` when an exception is attached.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from webhook.jsontext import compact_encoder

_ENCODER = compact_encoder(ensure_ascii=False, default=str)
_LINE = compact_encoder(ensure_ascii=False)


class JsonLine:
    """A log message that is the compact JSON of ``fields``, encoded only when it is read (``str``)."""

    __slots__ = ("fields",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        self.fields = fields

    def __str__(self) -> str:
        return _LINE(self.fields)


def utc_timestamp(created: float) -> str:
    """``2026-11-22T10:28:54.123+00:00``, as ``datetime.isoformat(timespec="milliseconds")`` gives it,
    with the date and time part formatted once per second."""
    seconds = int(created)
    micros = round((created - seconds) * 1e6)  # datetime.fromtimestamp rounds to microseconds
    if micros >= 1_000_000:
        seconds, micros = seconds + 1, micros - 1_000_000
    global _last
    cached_second, prefix = _last  # one tuple, swapped whole: threads never see a torn pair
    if seconds != cached_second:
        prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        _last = (seconds, prefix)
    return f"{prefix}.{micros // 1000:03d}+00:00"


_last: tuple[int, str] = (-1, "")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": utc_timestamp(record.created),
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
        return _ENCODER(line)


def logconfig_dict(level: str) -> dict[str, Any]:
    """``logging.config.dictConfig`` input: everything as JSON on stderr (the container log)."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "webhook.server.jsonlog.JsonFormatter"}},
        "handlers": {"json": handler},
        "root": {"level": level.upper(), "handlers": ["json"]},
        "loggers": {
            "gunicorn.error": {"level": level.upper(), "handlers": ["json"], "propagate": False},
            # the routes log every review with its decision; the access line would only repeat it
            "gunicorn.access": {"level": "WARNING", "handlers": ["json"], "propagate": False},
        },
    }
