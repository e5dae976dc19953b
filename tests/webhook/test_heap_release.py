"""After its sync the cache gives the memory the sync freed back to the system (glibc's ``malloc_trim``).

Run in a fresh interpreter: 200 MiB of 2 KiB buffers (too big for Python's small-object allocator,
so they come from malloc's heap) are freed while one buffer allocated after them stays alive, so
the freed memory sits below the top of the heap, where ``free`` alone never returns it.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, os
from webhook.cluster.heap import release_free_heap

def rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

chunks = [bytes(2048) for _ in range(100_000)]
pin = bytes(2048)
del chunks
before = rss()
released = release_free_heap()
print(json.dumps({"released": released, "before": before, "after": rss()}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim is glibc's")
def test_freed_heap_goes_back_to_the_system() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60)
    result = json.loads(out.stdout)
    assert result["released"] is True
    assert result["before"] - result["after"] > 150 * 1024 * 1024
