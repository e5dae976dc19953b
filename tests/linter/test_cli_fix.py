"""``binpack-lint --fix`` and ``--diff`` through the real command: files rewritten in place (mode kept,
atomically), the report and exit code of the fixed files, the diff, standard input, write errors, and
the ``[*]``/``fixable`` marks in text, JSON and SARIF."""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
from pathlib import Path

import jsonschema
import pytest
from lint_cli_helpers import CLI, TIMEOUT, assert_no_traceback, have, run_cli

DATA = Path(__file__).resolve().parents[1] / "data"
HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
FIT = (HEAD + "profiles:\n- schedulerName: binpack\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
       "      scoringStrategy:\n        type: MostAllocated\n        resources:\n")
# line 11: a used BPL202 selector beside an unused BPL150 one; line 13: a real error (weight -1, BPL150)
STALE = (FIT + "        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202,BPL150 -- on purpose\n"
         "        - {name: gpu, weight: 1}\n        - {name: memory, weight: -1}\n")
FIXED = (FIT + "        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202 -- on purpose\n"
         "        - {name: gpu, weight: 1}\n        - {name: memory, weight: -1}\n")
UNUSED = ("a.yaml:11:66: warning [BPL008] [*] suppression of BPL150 silenced nothing: no BPL150 finding on this "
          "line or the next; remove it (or the code) so it cannot hide a future finding\n")
CLEAN = HEAD + "profiles: []  # binpack-lint: disable=BPL102\n"


def _error_lines(stdout: str) -> list[str]:
    return [line.split(" ", 3)[2] for line in stdout.splitlines() if not line.startswith(" ")]


def test_text_marks_what_fix_repairs(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(STALE)
    result = run_cli(["--no-config", "a.yaml"], cwd=tmp_path)
    assert result.code == 1
    assert UNUSED in result.stdout
    assert _error_lines(result.stdout) == ["[BPL008]", "[BPL150]"]
    assert "[BPL150] [*]" not in result.stdout  # a real error has no fix


def test_fix_rewrites_in_place_keeps_the_mode_and_reports_the_fixed_file(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_text(STALE)
    target.chmod(0o640)
    result = run_cli(["--no-config", "--fix", "a.yaml"], cwd=tmp_path)
    assert_no_traceback(result)
    assert target.read_text() == FIXED
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert _error_lines(result.stdout) == ["[BPL150]"]  # what the fixed file still has
    assert result.code == 1
    assert result.stderr == ("binpack-lint: fixed 1 finding in 1 file\n"
                             "binpack-lint: 1 error in 1 file\n")
    assert sorted(os.listdir(tmp_path)) == ["a.yaml"]  # no temporary file left behind
    again = run_cli(["--no-config", "--fix", "a.yaml"], cwd=tmp_path)  # idempotent
    assert target.read_text() == FIXED
    assert again.stderr.startswith("binpack-lint: fixed 0 findings in 0 files\n")


def test_fix_exit_code_is_the_fixed_files_and_quiet_says_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(CLEAN)
    result = run_cli(["--no-config", "--fix", "-q", "a.yaml"], cwd=tmp_path)
    assert (result.code, result.stdout, result.stderr) == (0, "", "")
    assert (tmp_path / "a.yaml").read_text() == HEAD + "profiles: []\n"
    strict = tmp_path / "b.yaml"
    strict.write_text(CLEAN)
    assert run_cli(["--no-config", "--strict", "b.yaml"], cwd=tmp_path).code == 1  # the BPL008 warning
    assert run_cli(["--no-config", "--strict", "--fix", "b.yaml"], cwd=tmp_path).code == 0


def test_diff_prints_the_fix_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(STALE)
    (tmp_path / "b.yaml").write_text(HEAD + "profiles: []\n")
    result = run_cli(["--no-config", "--diff", "a.yaml", "b.yaml"], cwd=tmp_path)
    assert result.code == 1
    assert result.stdout == (
        "--- a.yaml\n+++ a.yaml\n@@ -8,6 +8,6 @@\n"
        "       scoringStrategy:\n         type: MostAllocated\n         resources:\n"
        "-        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202,BPL150 -- on purpose\n"
        "+        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202 -- on purpose\n"
        "         - {name: gpu, weight: 1}\n         - {name: memory, weight: -1}\n")
    assert result.stderr == "binpack-lint: 1 finding in 1 file can be fixed with --fix\n"
    assert (tmp_path / "a.yaml").read_text() == STALE
    nothing = run_cli(["--no-config", "--diff", "b.yaml"], cwd=tmp_path)
    assert (nothing.code, nothing.stdout) == (0, "")
    missing = run_cli(["--no-config", "--diff", "a.yaml", "missing.yaml"], cwd=tmp_path)
    assert missing.code == 2


def test_diff_marks_a_missing_last_newline(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(HEAD + "profiles: []  # binpack-lint: disable=BPL102")
    result = run_cli(["--no-config", "--diff", "-q", "a.yaml"], cwd=tmp_path)
    assert result.stdout.endswith("-profiles: []  # binpack-lint: disable=BPL102\n\\ No newline at end of file\n"
                                  "+profiles: []\n\\ No newline at end of file\n")


def test_fix_on_standard_input_prints_the_fixed_text_and_reports_on_stderr(tmp_path: Path) -> None:
    result = run_cli(["--no-config", "--fix", "-"], cwd=tmp_path, stdin=STALE.encode())
    assert result.stdout == FIXED
    assert result.code == 1
    assert "<stdin>:13:" in result.stderr and "BPL008" not in result.stderr
    assert "binpack-lint: fixed 1 finding in 1 file\n" in result.stderr
    unchanged = run_cli(["--no-config", "--fix", "-"], cwd=tmp_path, stdin=FIXED.encode())
    assert unchanged.stdout == FIXED
    (tmp_path / "a.yaml").write_text(CLEAN)
    mixed = run_cli(["--no-config", "--fix", "-", "a.yaml"], cwd=tmp_path, stdin=STALE.encode())
    assert (mixed.code, mixed.stderr) == (
        2, "binpack-lint: error: --fix with '-' prints the fixed standard input: give no other PATH\n")
    both = run_cli(["--no-config", "--fix", "--diff", "a.yaml"], cwd=tmp_path)
    assert (both.code, both.stderr) == (
        2, "binpack-lint: error: --fix and --diff cannot be used together (--diff writes nothing)\n")
    assert (tmp_path / "a.yaml").read_text() == CLEAN


def _small_files() -> None:
    # a file size limit makes every write past 16 bytes fail (EFBIG; Python ignores SIGXFSZ), even for root
    resource.setrlimit(resource.RLIMIT_FSIZE, (16, 16))


def test_a_file_that_cannot_be_written_is_one_error_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(STALE)
    (tmp_path / "b.yaml").write_text(CLEAN)
    proc = subprocess.run([*CLI, "--no-config", "--fix", "a.yaml", "b.yaml"], cwd=tmp_path, capture_output=True,
                          timeout=TIMEOUT, check=False, preexec_fn=_small_files, text=True)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[:2] == ["binpack-lint: error: cannot write a.yaml: File too large",
                                            "binpack-lint: error: cannot write b.yaml: File too large"]
    assert "Traceback" not in proc.stderr
    assert (tmp_path / "a.yaml").read_text() == STALE  # nothing lost
    assert sorted(os.listdir(tmp_path)) == ["a.yaml", "b.yaml"]


def test_json_and_sarif_say_fixable(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(STALE)
    document = json.loads(run_cli(["--no-config", "-f", "json", "a.yaml"], cwd=tmp_path).stdout)
    assert [(f["rule"], f.get("fixable")) for f in document["findings"]] == [("BPL008", True), ("BPL150", None)]
    log = json.loads(run_cli(["--no-config", "-f", "sarif", "a.yaml"], cwd=tmp_path).stdout)
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r.get("properties", {}).get("fixable")) for r in results] == [
        ("BPL008", True), ("BPL150", None)]


def test_fix_keeps_a_bom_and_crlf_line_endings(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_bytes(b"\xef\xbb\xbf" + CLEAN.replace("\n", "\r\n").encode())
    result = run_cli(["--no-config", "--fix", "-q", "a.yaml"], cwd=tmp_path)
    assert result.code == 0
    assert target.read_bytes() == b"\xef\xbb\xbf" + (HEAD + "profiles: []\n").replace("\n", "\r\n").encode()


def test_diff_applies_with_patch_to_the_files_bytes_bom_and_line_separators_too(tmp_path: Path) -> None:
    # U+2028 and U+0085 inside quoted strings are text to YAML, but str.splitlines ends a line at them;
    # patch counts lines by newlines only and sees the BOM as part of the first line
    text = ('clientConnection: {contentType: "a\u2028b\x85c"}\n' + HEAD
            + "profiles: []  # binpack-lint: disable=BPL102\n")
    target = tmp_path / "a.yaml"
    target.write_bytes(b"\xef\xbb\xbf" + text.encode())
    result = run_cli(["--no-config", "--diff", "-q", "a.yaml"], cwd=tmp_path)
    assert result.stdout == (
        "--- a.yaml\n+++ a.yaml\n@@ -1,4 +1,4 @@\n"
        ' \ufeffclientConnection: {contentType: "a\u2028b\x85c"}\n'
        " apiVersion: kubescheduler.config.k8s.io/v1\n kind: KubeSchedulerConfiguration\n"
        "-profiles: []  # binpack-lint: disable=BPL102\n+profiles: []\n")
    if have("patch"):
        subprocess.run(["patch", "-p0", "--binary", "-s"], cwd=tmp_path, input=result.stdout.encode(), check=True,
                       timeout=TIMEOUT)
        assert target.read_bytes() == b"\xef\xbb\xbf" + text.replace("  # binpack-lint: disable=BPL102", "").encode()


def test_fix_on_standard_input_prints_utf8_and_keeps_a_bom_whatever_the_locale(tmp_path: Path) -> None:
    text = HEAD + 'clientConnection:\n  contentType: "é"\nprofiles: []  # binpack-lint: disable=BPL102\n'
    result = run_cli(["--no-config", "--fix", "-q", "-"], cwd=tmp_path, stdin=b"\xef\xbb\xbf" + text.encode(),
                     env={"PYTHONIOENCODING": "ascii"})
    assert result.stdout == "\ufeff" + text.replace("  # binpack-lint: disable=BPL102", "")
    assert result.code == 0
    diff = run_cli(["--no-config", "--diff", "-q", "-"], cwd=tmp_path, stdin=text.encode(),
                   env={"PYTHONIOENCODING": "ascii"})
    assert ' contentType: "é"\n' in diff.stdout


def test_a_file_named_twice_or_through_a_link_is_fixed_once_under_its_own_name(tmp_path: Path) -> None:
    (tmp_path / "real.yaml").write_text(CLEAN)
    (tmp_path / "link.yaml").symlink_to("real.yaml")
    diff = run_cli(["--no-config", "--diff", "link.yaml", "real.yaml", "real.yaml"], cwd=tmp_path)
    assert diff.code == 1
    assert diff.stdout == ("--- real.yaml\n+++ real.yaml\n@@ -1,3 +1,3 @@\n"
                           " apiVersion: kubescheduler.config.k8s.io/v1\n kind: KubeSchedulerConfiguration\n"
                           "-profiles: []  # binpack-lint: disable=BPL102\n"
                           "+profiles: []\n")
    assert diff.stderr == "binpack-lint: 1 finding in 1 file can be fixed with --fix\n"
    fixed = run_cli(["--no-config", "--fix", "."], cwd=tmp_path)  # the directory holds the file and the link
    assert (fixed.code, fixed.stdout) == (0, "")
    assert fixed.stderr == "binpack-lint: fixed 1 finding in 1 file\nbinpack-lint: no problems in 2 files\n"
    assert (tmp_path / "real.yaml").read_text() == HEAD + "profiles: []\n"
    assert (tmp_path / "link.yaml").is_symlink()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may give a file to another user")
def test_fix_run_by_root_keeps_the_files_owner(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_text(CLEAN)
    os.chown(target, 12345, 23456)
    target.chmod(0o2644)  # set-gid: chown clears it, so the mode must be set after
    result = run_cli(["--no-config", "--fix", "-q", "a.yaml"], cwd=tmp_path)
    assert (result.code, result.stderr) == (0, "")
    assert target.read_text() == HEAD + "profiles: []\n"
    info = target.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (12345, 23456, 0o2644)
