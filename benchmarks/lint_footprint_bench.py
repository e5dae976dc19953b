"""What a linter-only install costs: its size on disk and ``binpack-lint``'s cold start, before vs after a change.

For each git revision given (default: ``HEAD~1`` and the working tree), builds a fresh virtualenv with
``pip install <tree>`` (no extras, as pre-commit installs the hook), then reports:

* install size: bytes under the venv's ``site-packages`` (pip, setuptools and wheel excluded, as they are
  in every venv), and whether ``numpy`` got installed;
* cold start: median wall clock of ``binpack-lint <one example config>`` in a fresh process, the revisions
  interleaved run by run so that load on the machine hits both alike.

Usage: ``python benchmarks/lint_footprint_bench.py [--runs 21] [--before REV] [--file examples/...]``.
Needs pip to reach the package index (or its cache). Venvs are built in a temporary directory and removed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASELINE_PACKAGES = ("pip", "setuptools", "wheel", "_distutils_hack", "distutils-precedence.pth")


def export_tree(rev: str, into: Path) -> Path:
    """The tree of ``rev`` as plain files (``git archive``); ``WORKTREE`` means the checkout as it is."""
    if rev == "WORKTREE":
        return REPO
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def build_venv(tree: Path, venv: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", str(tree)],
                   check=True)
    return venv


def site_packages_bytes(venv: Path) -> tuple[int, bool]:
    (site,) = venv.glob("lib/python*/site-packages")
    total = 0
    for entry in site.iterdir():
        if entry.name.split("-")[0] in BASELINE_PACKAGES or entry.name in BASELINE_PACKAGES:
            continue
        files = [entry] if entry.is_file() else [p for p in entry.rglob("*") if p.is_file()]
        total += sum(p.stat().st_size for p in files)
    return total, (site / "numpy").is_dir()


def time_once(venv: Path, target: str) -> float:
    start = time.perf_counter()
    subprocess.run([str(venv / "bin" / "binpack-lint"), target], cwd=REPO, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="HEAD~1", help="git revision to compare against (default HEAD~1)")
    parser.add_argument("--after", default="WORKTREE", help="git revision, or WORKTREE (default)")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--file", default="examples/kube-scheduler-mostallocated.yaml")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lint-footprint-") as tmp:
        venvs: dict[str, Path] = {}
        for label, rev in (("before", args.before), ("after", args.after)):
            tree = export_tree(rev, Path(tmp) / f"src-{label}")
            venvs[label] = build_venv(tree, Path(tmp) / f"venv-{label}")
        times: dict[str, list[float]] = {label: [] for label in venvs}
        for label in venvs:  # warm the page cache once each; not counted
            time_once(venvs[label], args.file)
        for _ in range(args.runs):
            for label, venv in venvs.items():
                times[label].append(time_once(venv, args.file))
        print(f"binpack-lint {args.file}: {args.runs} runs each, interleaved; before={args.before} after={args.after}")
        medians = {}
        for label, venv in venvs.items():
            size, has_numpy = site_packages_bytes(venv)
            medians[label] = statistics.median(times[label])
            print(f"  {label:6} install {size / 1e6:6.1f} MB (numpy installed: {has_numpy}); "
                  f"cold start median {medians[label] * 1000:6.1f} ms")
        print(f"  after/before cold start ratio: {medians['after'] / medians['before']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
