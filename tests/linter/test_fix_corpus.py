"""``--fix`` on every real-world file (``shared/wild/files``) and every example, copied to a temporary
directory with stale suppressions written into them: a trailing ``# binpack-lint: disable=...`` on
every line (inside ConfigMap block scalars, quoted strings and JSON too), and a comment-only one as
the first line. One ``binpack-lint --fix`` run over the copies must leave each file's effective
scheduler model and its other findings as they were, touch no line but the injected ones, and have
nothing left to fix afterwards; most files must come back byte for byte.
"""

from __future__ import annotations

from pathlib import Path

from lint_cli_helpers import assert_no_traceback, run_cli
from paths import ROOT, SHARED

from linter.engine import LINT_SUFFIXES, lint_text, load_scheduler_model
from linter.findings import Finding
from linter.settings import LintSettings

SETTINGS = LintSettings()
STALE = "# binpack-lint: disable=BPL158 -- stale"


def _originals() -> dict[str, str]:
    files = {f"wild/{p.name}": p for p in sorted((SHARED / "wild/files").iterdir()) if p.is_file()}
    files.update({f"examples/{p.relative_to(ROOT / 'examples')}": p for p in sorted((ROOT / "examples").rglob("*"))
                  if p.is_file() and p.name.endswith(LINT_SUFFIXES) and not p.name.startswith(".")})
    return {name: path.read_text(encoding="utf-8") for name, path in files.items()}


def _trailing(text: str) -> str:
    return "".join(line.rstrip("\n") + "  " + STALE + "\n" if line.strip() else line
                   for line in text.splitlines(keepends=True))


def test_fix_keeps_every_corpus_files_meaning(tmp_path: Path) -> None:
    originals = _originals()
    injected: dict[str, str] = {}
    for name, text in originals.items():
        injected[f"trailing/{name}"] = _trailing(text)
        injected[f"first-line/{name}"] = STALE + "\n" + text
    for name, text in injected.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = run_cli(["--no-config", "--fix", "-q", "-f", "json", "."], cwd=tmp_path)
    assert_no_traceback(result)
    restored = 0
    for name, before in injected.items():
        after = (tmp_path / name).read_text(encoding="utf-8")
        original = originals[name.split("/", 1)[1]]
        restored += after == original
        if after == before:
            continue
        path = name.rsplit("/", 1)[-1]
        assert load_scheduler_model(after, path)[0] == load_scheduler_model(before, path)[0], name
        if name.startswith("first-line/"):
            assert after == original, name  # the one injected line removed, nothing else
            continue
        assert _other_findings(after, path) == _other_findings(before, path), name
        # no other line touched: each line is as injected, or the original without its trailing blanks
        lines = list(zip(after.splitlines(), before.splitlines(), original.splitlines(), strict=True))
        assert all(a in (b, o.rstrip(" \t")) for a, b, o in lines), name
    leftover = run_cli(["--no-config", "--diff", "-q", "."], cwd=tmp_path)
    assert (leftover.code, leftover.stdout) == (0, "")  # idempotent: nothing left to fix
    print(f"{restored} of {len(injected)} files restored")
    assert restored >= len(injected) * 3 // 4, f"only {restored} of {len(injected)} files restored"


def _other_findings(text: str, path: str) -> list[Finding]:
    return [f for f in lint_text(text, path, SETTINGS) if f.rule != "BPL008"]
