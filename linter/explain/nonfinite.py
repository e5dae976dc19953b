"""NaN and the infinities in explain's output, written as Go prints them.

Only Volcano's float64 arithmetic makes them, from a node's oversubscription annotations
(:mod:`linter.scoring.oversubscription`): ``NaN`` or ``+Inf`` there gives that node's allocatable, binpack term
and score the same value. JSON has no such numbers, so the JSON output carries them as the strings
``strconv.FormatFloat`` gives (``"NaN"``, ``"+Inf"``, ``"-Inf"``), and the text output shows those words.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "nonfinite_text"]


def nonfinite_text(value: float) -> str:
    """``strconv.FormatFloat(value, 'g', -1, 64)`` of a NaN or infinite ``value``."""
    return "NaN" if math.isnan(value) else ("+Inf" if value > 0 else "-Inf")


def _as_strings(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else nonfinite_text(value)
    if isinstance(value, dict):
        return {k: _as_strings(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_as_strings(v) for v in value]
    return value


def dumps(doc: Any) -> str:
    """``json.dumps(doc, indent=2)`` with every non-finite float as its Go text (the document is walked only
    when it holds one)."""
    try:
        return json.dumps(doc, indent=2, allow_nan=False)
    except ValueError:
        return json.dumps(_as_strings(doc), indent=2, allow_nan=False)
