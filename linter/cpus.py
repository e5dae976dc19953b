"""How many CPUs this process may use: what ``--jobs 0`` and explain's second reading process size to."""

from __future__ import annotations

import os

__all__ = ["usable_cpus"]


def usable_cpus() -> int:
    """The CPUs in this process's affinity mask where the platform has one (a container's cpuset),
    else the machine's; at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
