"""Two source trees of binpack-lint side by side: is a change slower than its baseline?

Runs ``python -c 'import linter.cli ...'`` with each tree first on ``sys.path`` (so the same
interpreter and dependencies serve both), interleaved run by run, on (1) the typical config of
``lint_bench.py`` (cold start) and (2) a directory of N config files drawn from the vectors.
Prints medians and the candidate/baseline ratios.

Usage: ``git archive main | tar -x -C /tmp/main-src`` then
``python benchmarks/lint_ab_bench.py --baseline /tmp/main-src [--candidate .] [--runs 11] [--files 1000]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lint_bench import corpus_texts, timed, typical_config

RUNNER = "import sys; sys.path.insert(0, sys.argv.pop(1)); from linter.cli import main; sys.exit(main())"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="source tree of the baseline (e.g. main)")
    parser.add_argument("--candidate", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    trees = {"baseline": str(Path(args.baseline).resolve()), "candidate": str(Path(args.candidate).resolve())}
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "scheduler-config.yaml"
        config.write_text(typical_config())
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        texts = corpus_texts()
        for i in range(args.files):
            (corpus / f"config-{i:04d}.yaml").write_text(texts[i % len(texts)])
        cases = {"cold single file": [str(config)], f"{args.files} files, one process": [str(corpus)]}
        samples: dict[tuple[str, str], list[float]] = {}
        for case, paths in cases.items():
            for tree in trees.values():
                timed([sys.executable, "-c", RUNNER, tree, "-q", "-f", "json", *paths])  # warm caches
            for _ in range(args.runs):
                for name, tree in trees.items():
                    wall, _, _ = timed([sys.executable, "-c", RUNNER, tree, "-q", "-f", "json", *paths])
                    samples.setdefault((case, name), []).append(wall)
    print(f"{args.runs} interleaved runs each; medians of wall time")
    for case in cases:
        base = statistics.median(samples[(case, "baseline")])
        cand = statistics.median(samples[(case, "candidate")])
        print(f"{case:<28} baseline {base * 1000:8.1f} ms   candidate {cand * 1000:8.1f} ms   ratio {cand / base:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
