"""Compact JSON encoders built once, for the text every admission request writes (patches, annotations,
responses, log lines).

``json.JSONEncoder.encode`` makes a new C encoder object on every call, with a dict for its circular-reference
check; for the small documents of one request that set-up is a third of the call. :func:`compact_encoder`
makes the C encoder once (the same ``_json`` encoder, separators, escaping and ``default`` as the
``JSONEncoder`` it stands for, so the text is the same byte for byte) and skips the circular check: the
values encoded here are decoded JSON, or built from it, and never refer to themselves.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

try:
    import _json
except ImportError:  # pragma: no cover - a Python built without the _json accelerator
    _json = None  # type: ignore[assignment]

Encode = Callable[[Any], str]


def compact_encoder(*, ensure_ascii: bool, default: Callable[[Any], Any] | None = None) -> Encode:
    """``json.JSONEncoder(separators=(",", ":"), ensure_ascii=..., default=...).encode``, set up once."""
    fallback = json.JSONEncoder(separators=(",", ":"), ensure_ascii=ensure_ascii, default=default)
    if _json is None:  # pragma: no cover
        return fallback.encode
    escape = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
    chunks = _json.make_encoder(None, fallback.default, escape, None, ":", ",", False, False, True)

    def encode(value: Any) -> str:
        return "".join(chunks(value, 0))

    return encode
