"""Giving the memory freed by the cache sync back to the operating system.

The initial list decodes every object of the cluster from JSON and keeps a few fields of each: the
decoded pages are freed, but glibc's allocator keeps the freed memory in the process for reuse, so
the worker's RSS stays at its peak during the sync. ``malloc_trim(0)`` returns what is free at the
top of the heap and in unused pages. It exists only with glibc; elsewhere this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable

__all__ = ["release_free_heap"]


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS)
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_free_heap() -> bool:
    """Ask the C allocator to give free memory back to the system; False where it cannot."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
