"""Non-finite floats: the scheduler refuses the whole file before it reads a single field.

kube-scheduler's decoder first turns the YAML into JSON (sigs.k8s.io/yaml ``YAMLToJSON``:
yaml.v2, then ``json.Marshal``). yaml.v2 reads ``.inf``, ``-.Inf``, ``.NaN`` and the other
YAML 1.1 spellings as float64 infinities and NaN, which JSON cannot hold, so ``json.Marshal``
fails with ``json: unsupported value: +Inf`` (``-Inf``, ``NaN``), and the decoder returns
that error as it is, ahead of apiVersion/kind and of any typed decoding. It applies anywhere
in the document, opaque plugin args and unknown fields included. ``json.Marshal`` writes map
keys in sorted order, so the error names the first such value in that order; binpack-lint
reports every one (in that order), since the next would stop the scheduler once the first is fixed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from linter.formats.kubesched import codes as c
from linter.formats.kubesched.issues import Issue
from linter.source import Pointer

HINT = " (YAML .inf/.nan cannot be converted to JSON; write a finite number)"


def _go_text(value: float) -> str:
    """``strconv.FormatFloat(v, 'g', -1, 64)`` of a non-finite float, as encoding/json quotes it."""
    return "NaN" if math.isnan(value) else ("+Inf" if value > 0 else "-Inf")


def non_finite(data: Any) -> Iterator[tuple[Pointer, float]]:
    """Every infinite or NaN float in ``json.Marshal``'s order (map keys sorted), with its pointer."""
    stack: list[tuple[Pointer, Any]] = [((), data)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            yield pointer, value
        elif isinstance(value, dict):
            keys = sorted(value, key=lambda k: str(k).encode("utf-8", "surrogatepass"))
            stack.extend(((*pointer, k), value[k]) for k in reversed(keys))
        elif isinstance(value, list):
            stack.extend(((*pointer, i), value[i]) for i in reversed(range(len(value))))


def json_marshal_issues(data: Any) -> list[Issue]:
    """The scheduler's error for each non-finite float of the document, at that value (empty: none)."""
    return [Issue(c.WRONG_TYPE, "decode", f"json: unsupported value: {_go_text(value)}", pointer, hint=HINT)
            for pointer, value in non_finite(data)]
