"""Lint time vs input size, up to the webhook's 3 MiB body limit: is the linter linear?

    python benchmarks/lint_size_bench.py [--max-bytes 3145728] [--before /path/to/other/checkout]

Three generated shapes that used to be super-linear: ``same-name`` (N profiles all called
default-scheduler: one BPL102 finding per profile), ``duplicate-keys`` (one key repeated N times) and
``distinct`` (N profiles, each with its own NodeResourcesFit score config). For each shape the size
doubles from 32 KiB to ``--max-bytes``; each point is ``lint_text`` in a fresh interpreter (so one slow
point cannot skew the next), median of ``--runs``. The table shows seconds and microseconds per KiB:
a flat µs/KiB column is linear growth. ``--before`` runs the same points against another checkout
(e.g. ``main``) side by side, with a timeout per point.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
DISTINCT = ("- schedulerName: s{i}\n  plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n"
            "        weight: 2\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
            "        type: MostAllocated\n        resources:\n        - name: cpu\n          weight: 1\n")


def generate(shape: str, size: int) -> str:
    if shape == "same-name":
        line = "- schedulerName: default-scheduler\n"
        return HEAD + "profiles:\n" + line * (size // len(line))
    if shape == "duplicate-keys":
        line = "percentageOfNodesToScore: 50\n"
        return HEAD + line * (size // len(line))
    count = size // len(DISTINCT.format(i=0))
    return HEAD + "profiles:\n" + "".join(DISTINCT.format(i=i) for i in range(count))


TIMER = """
import sys, time
from linter.engine import lint_text
text = sys.stdin.read()
started = time.perf_counter()
lint_text(text, "config.yaml")
print(time.perf_counter() - started)
"""


def measure(tree: Path, text: str, timeout: float) -> float | None:
    try:
        done = subprocess.run([sys.executable, "-c", TIMER], input=text, capture_output=True, text=True,
                              timeout=timeout, cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                              check=True)
    except subprocess.TimeoutExpired:
        return None
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-bytes", type=int, default=3 * 1024 * 1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another checkout to time side by side")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--shapes", default="same-name,duplicate-keys,distinct")
    args = parser.parse_args()
    trees = [("after", ROOT)] + ([("before", args.before)] if args.before else [])
    print("| shape | size | " + " | ".join(f"{n} s | {n} µs/KiB" for n, _ in trees) + " |")
    print("|---|---:|" + "---:|---:|" * len(trees))
    for shape in args.shapes.split(","):
        size = 32 * 1024
        while size <= args.max_bytes:
            text = generate(shape, size)
            cells = []
            for _, tree in trees:
                times = [measure(tree, text, args.timeout) for _ in range(args.runs)]
                if any(t is None for t in times):
                    cells += [f"> {args.timeout:.0f}", "—"]
                    continue
                median = statistics.median(t for t in times if t is not None)
                cells += [f"{median:.2f}", f"{median * 1e6 / (len(text) / 1024):.0f}"]
            print(f"| {shape} | {len(text) // 1024} KiB | " + " | ".join(cells) + " |", flush=True)
            size *= 2


if __name__ == "__main__":
    main()
