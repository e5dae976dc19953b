"""Hostile and broken input through the real command: each case gives one-line findings that name
the file, the documented exit code, no traceback, and finishes under a memory cap (1 GiB of
address space) and a hang guard (the subprocess timeout; no speed is asserted).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from lint_cli_helpers import CliResult, assert_no_traceback, run_cli

RUNNING_AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def lint(cwd: Path, *args: str, stdin: bytes | None = None) -> CliResult:
    result = run_cli(["-f", "text", *args], cwd=cwd, stdin=stdin, limit_memory=True)
    assert_no_traceback(result)
    return result


def finding_lines(result: CliResult) -> list[tuple[str, str]]:
    """(path, rule) per stdout line; every line must be a whole finding."""
    out = []
    for line in result.stdout.splitlines():
        head, _, rest = line.partition(": ")
        path, row, col = head.rsplit(":", 2)
        assert int(row) >= 1 and int(col) >= 1, line
        severity, rule = rest.split(" ")[:2]
        assert severity in ("error", "warning") and rule.startswith("[BPL") and rule.endswith("]"), line
        out.append((path, rule.strip("[]")))
    return out


def write(path: Path, content: bytes) -> str:
    path.write_bytes(content)
    return path.name


def alias_bomb(levels: int = 12) -> bytes:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return ("\n".join(lines) + "\n").encode()


CASES = [
    # name, content, expected rule for that file, expected exit code
    ("empty.yaml", b"", "BPL003", 0),
    ("blank.yaml", b"\n   \n\n", "BPL003", 0),
    ("binary.yaml", b"\x7fELF\x02\x01\x01\x00\x00\x00" * 50, "BPL002", 2),
    ("latin1.yaml", "name: caf\xe9\n".encode("latin-1"), "BPL002", 2),
    ("utf16.yaml", "kind: KubeSchedulerConfiguration\n".encode("utf-16"), "BPL002", 2),
    ("invalid.yaml", b"kind: KubeSchedulerConfiguration\na: b: c\n", "BPL001", 1),
    ("tabs.yaml", b"kind: PriorityClass\na:\n\t- b\n", "BPL001", 1),
    ("helm-template.yaml", b"kind: ConfigMap\ndata: {{ .Values.x }}\n", "BPL004", 0),
    ("bomb.yaml", alias_bomb(), "BPL005", 1),
    ("deep-flow.yaml", b"[" * 100_000 + b"]" * 100_000, "BPL005", 1),
    ("deep-block.yaml", b"".join(b"  " * i + b"k:\n" for i in range(1000)), "BPL005", 1),
    ("deep.json", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "BPL005", 1),
    ("unclosed.json", b'{"apiVersion": "kubescheduler.config.k8s.io/v1", ', "BPL001", 1),
    ("bom-only.yaml", b"\xef\xbb\xbf", "BPL003", 0),
]


@pytest.mark.parametrize(("name", "content", "rule", "code"), CASES, ids=[c[0] for c in CASES])
def test_bad_file_is_one_finding_line_naming_it(tmp_path: Path, name: str, content: bytes, rule: str,
                                                code: int) -> None:
    write(tmp_path / name, content)
    result = lint(tmp_path, name)
    found = finding_lines(result)
    assert (name, rule) in found, result.stdout
    assert all(path == name for path, _ in found)
    assert result.code == code


def test_50_mb_file_is_refused_quickly_not_read(tmp_path: Path) -> None:
    with open(tmp_path / "huge.yaml", "wb") as fh:
        fh.write(b"items:\n" + b"- 1234567890\n" * (50 * 1024 * 1024 // 13))
    result = lint(tmp_path, "huge.yaml")
    assert finding_lines(result) == [("huge.yaml", "BPL002")]
    assert "limit" in result.stdout and result.code == 2


def test_50_mb_on_stdin_is_refused(tmp_path: Path) -> None:
    result = lint(tmp_path, "-", stdin=b"- 1234567890\n" * (50 * 1024 * 1024 // 13))
    assert finding_lines(result) == [("<stdin>", "BPL002")] and result.code == 2


def test_file_symlink_loop_and_dangling_link_are_unreadable(tmp_path: Path) -> None:
    os.symlink("b.yaml", tmp_path / "a.yaml")
    os.symlink("a.yaml", tmp_path / "b.yaml")
    os.symlink("nowhere.yaml", tmp_path / "dangling.yaml")
    result = lint(tmp_path, "a.yaml", "dangling.yaml")
    assert sorted(finding_lines(result)) == [("a.yaml", "BPL002"), ("dangling.yaml", "BPL002")]
    assert result.code == 2


def test_directory_symlink_loop_is_walked_once(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "broken.yaml").write_bytes(b"kind: PriorityClass\na: [\n")
    os.symlink("..", tree / "sub" / "up")
    result = lint(tmp_path, "tree")
    found = finding_lines(result)
    assert found.count((os.path.join("tree", "sub", "broken.yaml"), "BPL001")) == 1
    assert result.code == 1  # the loop itself is only a warning


def test_fifo_is_not_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")  # opening it for reading would block until a writer comes
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "dir" / "pipe.yaml")
    result = lint(tmp_path, "pipe.yaml", "dir")
    assert sorted(finding_lines(result)) == [(os.path.join("dir", "pipe.yaml"), "BPL002"), ("pipe.yaml", "BPL002")]
    assert result.code == 2


@pytest.mark.skipif(RUNNING_AS_ROOT, reason="root can read a chmod 000 file; the FIFO test covers unreadable paths")
def test_permission_denied_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "secret.yaml"
    path.write_text("a: 1\n")
    path.chmod(0)
    try:
        result = lint(tmp_path, "secret.yaml")
    finally:
        path.chmod(0o600)
    assert finding_lines(result) == [("secret.yaml", "BPL002")] and result.code == 2


def test_directory_with_thousands_of_files(tmp_path: Path) -> None:
    tree = tmp_path / "many"
    tree.mkdir()
    for i in range(3000):
        (tree / f"f{i:04d}.yaml").write_text(f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{i}}}\n")
    (tree / "f1234.yaml").write_text("kind: PriorityClass\na: [\n")
    result = run_cli(["-f", "json", "many"], cwd=tmp_path, limit_memory=True)
    assert_no_traceback(result)
    document = json.loads(result.stdout)
    assert document["files"] == 3000
    assert [(f["path"], f["rule"]) for f in document["findings"]] == [(os.path.join("many", "f1234.yaml"), "BPL001")]
    assert result.code == 1


def test_file_name_that_is_not_utf8_is_printed_not_crashed_on(tmp_path: Path) -> None:
    tree = tmp_path / "odd"
    tree.mkdir()
    with open(os.path.join(os.fsencode(tree), b"caf\xe9.yaml"), "wb") as fh:
        fh.write(b"kind: PriorityClass\na: [\n")
    for fmt in ("text", "json", "sarif", "github", "junit"):
        result = run_cli(["-f", fmt, "odd"], cwd=tmp_path)
        assert_no_traceback(result)
        assert result.code == 1, (fmt, result.stderr)
        assert "caf" in result.stdout


def test_reader_closing_the_pipe_early_is_not_a_traceback(tmp_path: Path) -> None:
    import subprocess

    from lint_cli_helpers import CLI

    tree = tmp_path / "many"
    tree.mkdir()
    for i in range(2000):
        (tree / f"f{i:04d}.yaml").write_text("kind: PriorityClass\na: [\n")
    proc = subprocess.Popen([*CLI, "-f", "text", "many"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    stderr = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) in (0, 1)
    assert b"[BPL001]" in first
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr


def test_control_characters_in_a_file_name_keep_one_line_per_finding(tmp_path: Path) -> None:
    tree = tmp_path / "odd"
    tree.mkdir()
    (tree / "new\nline\x1b[31m.yaml").write_text("kind: PriorityClass\na: [\n")
    result = lint(tmp_path, "odd")
    assert result.stdout.splitlines() == [
        f"{os.path.join('odd', 'new')}\\nline\\x1b[31m.yaml:3:1: error [BPL001] invalid YAML: did not find expected "
        "node content"
    ]
    assert result.code == 1


def test_a_named_directory_with_no_config_file_is_a_warning_not_silence(tmp_path: Path) -> None:
    (tmp_path / "deploy" / ".git").mkdir(parents=True)
    (tmp_path / "deploy" / ".git" / "config.yaml").write_text("a: 1\n")  # hidden: not walked
    (tmp_path / "deploy" / "README.md").write_text("notes\n")
    result = run_cli(["-f", "text", "--strict", "deploy"], cwd=tmp_path)
    assert_no_traceback(result)
    assert result.stdout == ("deploy:1:1: warning [BPL004] no *.yaml, *.yml, *.json, *.conf, *.cfg file in this "
                             "directory or below it: nothing to check\n")
    assert (result.code, result.stderr) == (0, "binpack-lint: 1 warning in 0 files\n")  # BPL004 never fails a run
