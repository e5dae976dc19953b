"""Turn each stage's errors into Issues: one per problem, on its own line.

Every Issue's message is what kube-scheduler prints when that problem is the only one. When a
stage has several problems, the first Issue of the stage carries the scheduler's complete
output instead (it contains the first problem too), so the exact text can be grepped.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from linter.formats.kubesched import codes as c
from linter.formats.kubesched.builds import VANILLA, Build
from linter.formats.kubesched.decode import DecodeError, decode_args, decode_object
from linter.formats.kubesched.issues import Issue
from linter.formats.kubesched.validate import Found
from linter.gofmt import aggregate, go_quote
from linter.source import Document, Pointer

_KIND_CODES = {"type": c.WRONG_TYPE, "unknown-field": c.UNKNOWN_FIELD, "duplicate-key": c.DUPLICATE_KEY,
               "args-kind": c.ARGS_KIND}


def _with_full(issues: list[Issue], full: str) -> list[Issue]:
    if len(issues) > 1:
        issues[0] = replace(issues[0], message=full)
    return issues


def decode_stage(doc: Document, data: dict[str, Any],
                 build: Build = VANILLA) -> tuple[dict[str, Any] | None, dict[Pointer, Any],
                                                                list[Issue]]:
    """Strict decode of the whole object and its typed args: (decoded, typed args, issues).

    ``decoded`` is None after a fatal error (the data cannot be trusted beyond it).
    """
    decoded, walk = decode_object(data, build.configuration)
    if walk.fatal is not None:
        return None, {}, [_issue(walk.fatal, walk.fatal.text)]
    solo: list[tuple[DecodeError, str]] = []
    parts: list[str] = []
    dup_lines = []
    positions: dict[tuple[Pointer, str], tuple[int, int]] = {}
    for dup in doc.duplicate_keys:
        # yaml.v2 names the line of the value being stored, merged in by ``<<`` or written out
        text = f"line {dup.go_line}: key {go_quote(dup.key)} already set in map"
        dup_lines.append(text)
        err = DecodeError(text, (*dup.pointer, dup.key), on_key=True, kind="duplicate-key")
        if (err.pointer, text) in positions:
            continue  # an alias decodes its anchor again and repeats its duplicates: one finding each
        positions[err.pointer, text] = (dup.line, dup.column)
        solo.append((err, f"strict decoding error: yaml: unmarshal errors:\n  {text}"))
    if dup_lines:
        parts.append("yaml: unmarshal errors:\n  " + "\n  ".join(dup_lines))
    for err in walk.strict:
        solo.append((err, f"strict decoding error: {err.text}"))
        parts.append(err.text)
    typed: dict[Pointer, Any] = {}
    for i, profile in enumerate(decoded.get("profiles") or []):
        for j, entry in enumerate(profile.get("pluginConfig") or []):
            name = entry.get("name", "")
            if name not in build.args_types:
                continue
            base: Pointer = ("profiles", i, "pluginConfig", j, "args")
            head = f"decoding .profiles[{i}].pluginConfig[{j}]: "
            args, fatal, strict = decode_args(name, entry.get("args"), base, build.args_types, build.args_kinds)
            if fatal is not None:
                if fatal.kind == "args-kind" and fatal.text.startswith("args for plugin"):
                    text = head + fatal.text
                else:
                    text = f"{head}decoding args for plugin {name}: {fatal.text}"
                return None, {}, [_issue(fatal, text)]
            typed[("profiles", i, "pluginConfig", j)] = args
            inner = f"{head}strict decoding error: decoding args for plugin {name}: strict decoding error: "
            for err in strict:
                solo.append((err, f"strict decoding error: {inner}{err.text}"))
            if strict:
                parts.append(inner + ", ".join(e.text for e in strict))
    issues = [_issue(err, text, positions) for err, text in solo]
    return decoded, typed, _with_full(issues, "strict decoding error: " + ", ".join(parts))


def _issue(err: DecodeError, text: str, positions: dict[tuple[Pointer, str], tuple[int, int]] | None = None) -> Issue:
    position = (positions or {}).get((err.pointer, err.text)) if err.kind == "duplicate-key" else None
    return Issue(_KIND_CODES[err.kind], "decode", text, err.pointer, err.on_key, position, hint=err.hint)


def validate_stage(found: list[Found]) -> list[Issue]:
    issues = [Issue(f.code, "validate", f.error.render(), f.pointer, f.on_key) for f in found]
    return _with_full(issues, aggregate([f.error.render() for f in found]))
