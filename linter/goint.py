"""Go's integer types as the Go code binpack-guard models uses them: the one home for their bounds.

``int_bounds(bits)`` and the named bounds are Go's ``int32``/``int64`` (and ``uint64``) ranges;
``wrap_int64`` is Go's two's-complement overflow; ``yaml_int`` is what a yaml.v2
``interface{}`` decode holds as a Go ``int`` (Volcano's ``Arguments.GetInt`` takes nothing else).
"""

from __future__ import annotations

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
UINT64_MAX = 2**64 - 1


def int_bounds(bits: int) -> tuple[int, int]:
    """(min, max) of Go's signed integer of that width."""
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def in_int64(value: int) -> bool:
    return INT64_MIN <= value <= INT64_MAX


def wrap_int64(value: int) -> int:
    """Two's-complement int64 wraparound, as Go arithmetic does."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value > INT64_MAX else value


def yaml_int(value: object) -> int | None:
    """The value when yaml.v2 decoded it to a Go ``int`` (not a bool, not beyond int64), else None.

    Past int64 yaml.v2 yields a uint64 or a float, which ``GetInt``'s type switch does not take.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if in_int64(value) else None
