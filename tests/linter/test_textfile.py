"""The one bounded text-file reader behind lint, explain, the project config and the webhook's config reload."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from linter.cli import main as binpack_lint
from linter.textfile import TextFileError, TextStream, read_bytes, read_text


def test_refuses_a_fifo_instead_of_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(TextFileError, match="not a regular file"):
        read_text(str(fifo), 1024)


@pytest.mark.parametrize(
    ("content", "reason", "position"),
    [
        (b"a: 1\nb: \xff\n", "not valid UTF-8 (byte 0xff at offset 8)", (2, 4)),
        (b"a\x00b", "binary file (contains NUL bytes)", (1, 1)),
        (b"x" * 2049, "file is 2049 bytes, over the 2048 byte limit", (1, 1)),
    ],
)
def test_one_line_reasons_with_positions(tmp_path: Path, content: bytes, reason: str,
                                         position: tuple[int, int]) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(content)
    with pytest.raises(TextFileError) as caught:
        read_text(str(path), 2048)
    assert (caught.value.reason, (caught.value.line, caught.value.column)) == (reason, position)


def test_directory_missing_and_bom(tmp_path: Path) -> None:
    with pytest.raises(TextFileError, match=r"^is a directory$"):
        read_bytes(str(tmp_path), 10)
    with pytest.raises(TextFileError, match=r"^cannot read: No such file"):
        read_bytes(str(tmp_path / "missing"), 10)
    (tmp_path / "bom.yaml").write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert read_text(str(tmp_path / "bom.yaml"), 100) == "a: 1\n"


def test_explain_names_a_fifo_cluster_dump_and_exits_2(tmp_path: Path) -> None:
    fifo = tmp_path / "dump.yaml"
    os.mkfifo(fifo)
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n")
    out, err = io.StringIO(), io.StringIO()
    assert binpack_lint(["explain", "--cluster", str(fifo), "--pod", str(pod)], out=out, err=err) == 2
    assert err.getvalue().count("\n") == 1 and "dump.yaml: not a regular file" in err.getvalue()


def _stream_error(path: Path, start: int, chunk: int, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int, int]:
    monkeypatch.setattr(TextStream, "CHUNK", chunk)
    with pytest.raises(TextFileError) as caught, TextStream(str(path), start) as stream:
        for _ in stream.chunks():
            pass
    return caught.value.reason, caught.value.line, caught.value.column


@pytest.mark.parametrize("chunk", [1, 3, 7, 64])
@pytest.mark.parametrize("start", [0, 6])
def test_a_streamed_bad_byte_is_placed_as_the_whole_file_read_places_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int, start: int) -> None:
    # Lines and columns are counted only when a bad byte is met, from the bytes read before it; they must
    # be what decoding the whole text at once gives, wherever the chunks end (multi-byte characters too).
    body = "kind: List\nitems:\n- name: é\n  zone: ü-1\n".encode()
    for at in (len(body) - 1, body.index(b"\xc3") + 1, body.index(b"zone"), len(body) - 12):
        content = body[:at] + b"\xff" + body[at:]
        path = tmp_path / f"bad-{at}.yaml"
        path.write_bytes(content)
        whole = tmp_path / f"whole-{at}.yaml"
        whole.write_bytes(content[start:])
        with pytest.raises(TextFileError) as expected:
            read_text(str(whole), 1 << 20)
        assert _stream_error(path, start, chunk, monkeypatch) == (
            expected.value.reason, expected.value.line, expected.value.column)


def test_only_lint_suggests_standard_input_for_a_fifo(tmp_path: Path) -> None:
    """``lint`` reads '-' as standard input; explain, migrate and --config do not, so they must not suggest it."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n")
    cases = {
        ("lint", "-q", str(fifo)): (2, f"{fifo}:1:1: error [BPL002] not a regular file (FIFO, socket or device); "
                                 "use '-' to read standard input\n", ""),
        ("migrate", str(fifo)): (2, "", f"{fifo}: error: not a regular file (FIFO, socket or device)\n"),
        ("explain", "--cluster", str(fifo), "--pod", str(pod)): (
            2, "", f"binpack-lint explain: error: STATE {fifo}: not a regular file (FIFO, socket or device)\n"),
        ("lint", "-q", "--config", str(fifo), str(pod)): (
            2, "", f"binpack-lint: error: {fifo}: config file: not a regular file (FIFO, socket or device)\n"),
    }
    for argv, expected in cases.items():
        out, err = io.StringIO(), io.StringIO()
        code = binpack_lint(list(argv), out=out, err=err)
        assert (code, out.getvalue(), err.getvalue()) == expected
