"""Lint speed, measured the way users meet it: a fresh interpreter per command.

Prints medians (wall clock, and CPU of the child) for, in the same run and interleaved:

1. ``binpack-lint`` on one typical kube-scheduler config (a vector config with a custom
   NodeResourcesFit scoring strategy);
2. ``check-jsonschema --schemafile schemas/kubescheduler-config-v1.json`` on the same file
   (the goal is binpack-lint in at most half of its time);
3. ``python -c pass``: the interpreter's own start-up floor;
4. ``binpack-lint`` over directories of N config files (default 1,000; goal < 2 s; issue 12: 10,000 in
   at most 10 s with memory flat in N), with the peak RSS of each run (the largest process: with
   ``--jobs``, the default, the files are checked by one worker process per CPU) and the CPU of the
   command and its workers.

Usage: ``python benchmarks/lint_bench.py [--runs 21] [--files 1000,10000] [--importtime]``.
Both commands are the console scripts installed next to this interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SHARED = Path(os.environ.get("BINPACK_GUARD_SHARED", Path(__file__).resolve().parents[2] / "shared"))
VECTORS = SHARED / "vectors" / "config.json"  # shared/ beside the clone, or $BINPACK_GUARD_SHARED
SCHEMA = REPO / "schemas" / "kubescheduler-config-v1.json"
TYPICAL_ID = "ks-docs-mostallocated-v1"
FALLBACK_TYPICAL = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: binpack
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - {name: cpu, weight: 1}
        - {name: memory, weight: 1}
"""


def timed(cmd: list[str]) -> tuple[float, float, int]:
    """(wall seconds, child CPU seconds, exit code) of one fresh process."""
    wall, cpu, _, code = measured(cmd)
    return wall, cpu, code


def measured(cmd: list[str]) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS MiB, exit code) of one fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def typical_config() -> str:
    if VECTORS.exists():
        for case in json.loads(VECTORS.read_text())["cases"]:
            if case["id"] == TYPICAL_ID:
                return str(case["text"])
    return FALLBACK_TYPICAL


def corpus_texts() -> list[str]:
    """Real configs of every kind the vectors hold, accepted and rejected."""
    if not VECTORS.exists():
        return [FALLBACK_TYPICAL]
    return [str(c["text"]) for c in json.loads(VECTORS.read_text())["cases"] if c.get("text")]


def median_row(label: str, samples: list[tuple[float, float, int]]) -> str:
    wall = statistics.median(s[0] for s in samples) * 1000
    cpu = statistics.median(s[1] for s in samples) * 1000
    codes = sorted({s[2] for s in samples})
    return f"{label:<58} {wall:9.1f} ms {cpu:9.1f} ms   exit {codes}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--files", default="1000", help="comma-separated corpus sizes, e.g. 1000,10000")
    parser.add_argument("--importtime", action="store_true", help="also print the 15 slowest imports")
    args = parser.parse_args()
    lint = [str(BIN / "binpack-lint")]
    checker = [str(BIN / "check-jsonschema") if (BIN / "check-jsonschema").exists()
               else shutil.which("check-jsonschema") or "check-jsonschema"]
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "scheduler-config.yaml"
        config.write_text(typical_config())
        commands: dict[str, list[str]] = {
            "binpack-lint scheduler-config.yaml": [*lint, "-q", str(config)],
            "python -c pass (interpreter floor)": [sys.executable, "-c", "pass"],
        }
        if SCHEMA.exists():
            commands["check-jsonschema --schemafile kubescheduler-config-v1.json"] = [
                *checker, "--schemafile", str(SCHEMA), str(config)]
        else:
            print(f"note: {SCHEMA.relative_to(REPO)} is missing; check-jsonschema comparison skipped")
        samples: dict[str, list[tuple[float, float, int]]] = {k: [] for k in commands}
        for cmd in commands.values():  # warm the page cache and any bytecode caches
            timed(cmd)
        for _ in range(args.runs):  # interleaved, so drift hits every command alike
            for label, cmd in commands.items():
                samples[label].append(timed(cmd))

        texts = corpus_texts()
        many: dict[int, list[tuple[float, float, float, int]]] = {}
        for count in map(int, args.files.split(",")):
            corpus = Path(tmp) / f"corpus-{count}"
            corpus.mkdir()
            for i in range(count):
                (corpus / f"config-{i:05d}.yaml").write_text(texts[i % len(texts)])
            many_cmd = [*lint, "-q", "-f", "json", str(corpus)]
            timed(many_cmd)
            many[count] = [measured(many_cmd) for _ in range(max(3, args.runs // 4))]

    print(f"python {sys.version.split()[0]} on {os.cpu_count()} CPUs; {args.runs} runs each; medians")
    print(f"{'command':<58} {'wall':>12} {'child CPU':>12}")
    for label, values in samples.items():
        print(median_row(label, values))
    for count, runs in many.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        rss = statistics.median(r[2] for r in runs)
        print(f"{f'binpack-lint on {count:,} config files (one command)':<58} {wall * 1000:9.1f} ms "
              f"{cpu * 1000:9.1f} ms   peak RSS {rss:.0f} MiB   exit {sorted({r[3] for r in runs})}")
    if "check-jsonschema --schemafile kubescheduler-config-v1.json" in samples:
        ours = statistics.median(s[0] for s in samples["binpack-lint scheduler-config.yaml"])
        theirs = statistics.median(s[0] for s in samples["check-jsonschema --schemafile kubescheduler-config-v1.json"])
        print(f"binpack-lint / check-jsonschema wall-time ratio: {ours / theirs:.2f} (goal <= 0.50)")
    if args.importtime:
        proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "linter", "-q", str(REPO / "pyproject.toml")],
                              capture_output=True, text=True, check=False)
        rows = [line.split("|") for line in proc.stderr.splitlines() if line.startswith("import time:")][1:]
        rows.sort(key=lambda r: int(r[1]), reverse=True)
        print("slowest imports (cumulative us | module):")
        for row in rows[:15]:
            print(f"  {row[1].strip():>8} | {row[2].rstrip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
