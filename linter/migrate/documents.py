"""Text in, text out: find what to migrate in a file, rewrite it, keep everything else as written.

* A bare KubeSchedulerConfiguration or Policy: kube-scheduler reads only the first YAML
  document, so only that one is migrated; later documents are kept verbatim.
* A manifest (first document not a scheduler config): every ConfigMap whose ``data`` holds
  one is migrated in place, the ConfigMap kept (a Policy's ``policy.cfg`` key is renamed
  ``scheduler-config.yaml``); other documents are kept verbatim.
* JSON in, JSON out (JSON has no comments: the notes are the only record then). YAML is
  rewritten with ruamel.yaml's round-trip mode so comments and key order survive, and the
  notes are put at the top of the migrated config as comments.
A v1 file is returned unchanged.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import LiteralScalarString

from linter.formats.policy.handler import HANDLER as POLICY
from linter.migrate.facts import OLD_VERSIONS, POLICY_CONFIGMAP_KEY, V1, V1_CONFIGMAP_KEY
from linter.migrate.kubesched import is_old_config, migrate_config
from linter.migrate.notes import CHANGE, ERROR, UNCHANGED, MigrateError, Note, Notes
from linter.migrate.policy import migrate_policy
from linter.migrate.tree import commented, is_map, plain, rename_key
from linter.nesting import nested_deeper_than
from linter.source import MAX_DEPTH, parse_stream

_TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"
_SEPARATOR = re.compile(r"^(?:---|\.\.\.)(?:[ \t]+#.*|[ \t]*)$")
HEADER = "Migrated to kube-scheduler 1.36 (kubescheduler.config.k8s.io/v1) by binpack-lint migrate:"


@dataclass
class Migration:
    """The rewritten text, what was done (``notes``), and where the migrated configs are."""

    text: str
    notes: list[Note] = field(default_factory=list)
    changed: bool = False
    # (first line, text) of each migrated scheduler config (the inner text for a ConfigMap)
    configs: list[tuple[int, str]] = field(default_factory=list)

    @property
    def errors(self) -> list[Note]:
        return [n for n in self.notes if n.level == ERROR]


def migrate_text(text: str) -> Migration:
    """Migrate one file's text; raises :class:`MigrateError` when there is nothing to migrate."""
    if not text.strip():
        raise MigrateError("the file is empty: nothing to migrate")
    if text.lstrip().startswith("{"):
        return _migrate_json(text)
    segments = _split(text)
    parsed = [(start, body, _load(body, start)) for start, body in segments]
    kinds = [_kind(data) for _, _, data in parsed]
    result = Migration(text)
    if kinds[0] in ("config", "policy", "v1"):
        targets = [0]
        if len([k for k in kinds if k != "empty"]) > 1:
            result.notes.append(Note(CHANGE, "", f"kube-scheduler reads only the first YAML document: migrated it "
                                                 f"and left the other {len(segments) - 1} as written"))
    else:
        targets = [i for i, k in enumerate(kinds) if k in ("configmap", "configmap-v1")]
    if not targets:
        raise MigrateError("no KubeSchedulerConfiguration or legacy scheduler Policy found (nothing to migrate)")
    bodies = [body for _, body, _ in parsed]
    for i in targets:
        start, body, data = parsed[i]
        if kinds[i] not in ("v1", "configmap-v1"):  # rewritten: must be YAML the Go decoders read
            _refuse_what_go_refuses(body, start)
        first = start + len(_lead(body).splitlines())
        new_body, notes, configs = _migrate_document(body, data, first, kinds[i])
        result.notes.extend(notes)
        result.configs.extend(configs)
        if new_body is not None:
            bodies[i] = new_body
            result.changed = True
    if result.changed:
        result.text = _join(text, segments, bodies)
    return result


def _split(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each YAML document; separator lines stay with the following body."""
    lines = text.splitlines(keepends=True)
    segments: list[tuple[int, list[str]]] = [(1, [])]
    for number, line in enumerate(lines, 1):
        if _SEPARATOR.match(line.rstrip("\r\n")) and (segments[-1][1] or number > 1):
            segments.append((number, []))
        segments[-1][1].append(line)
    return [(start, "".join(body)) for start, body in segments]


def _join(text: str, segments: list[tuple[int, str]], bodies: list[str]) -> str:
    out = []
    for (_, old), new in zip(segments, bodies, strict=True):
        if new is not old:
            new = _lead(old) + new
            if not new.endswith("\n"):
                new += "\n"
        out.append(new)
    return "".join(out)


def _lead(body: str) -> str:
    """The separator line and blank lines a document starts with (kept as written)."""
    lines = body.splitlines(keepends=True)
    count = 1 if lines and _SEPARATOR.match(lines[0].rstrip("\r\n")) else 0
    while count < len(lines) and not lines[count].strip():
        count += 1
    return "".join(lines[:count])


def _yaml(sample: str) -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    indented = re.search(r"^( *)[^\s#-][^\n]*:[ \t]*\n\1 +- ", sample, re.M) is not None
    yaml.indent(mapping=2, sequence=4 if indented else 2, offset=2 if indented else 0)
    return yaml


def _load(body: str, start: int) -> Any:
    text = body
    first = body.split("\n", 1)[0].rstrip("\r")
    if _SEPARATOR.match(first):
        text = body[len(first):].lstrip("\r\n") if "\n" in body else ""
    try:
        data = _yaml(text).load(text)
    except RecursionError:  # ruamel's constructor recurses: a few hundred levels overflow it
        raise MigrateError(f"line {start}: {_TOO_DEEP}") from None
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = start + (mark.line if mark is not None else 0)
        raise MigrateError(f"line {line}: not valid YAML: {_one_line(getattr(exc, 'problem', None) or str(exc))}") \
            from None
    except Exception as exc:  # ruamel raises a few non-YAMLError types on odd input
        raise MigrateError(f"line {start}: not valid YAML: {_one_line(str(exc))}") from None
    return _deep_refused(data, f"line {start}: ")


def _refuse_what_go_refuses(text: str, first_line: int, where: str = "") -> None:
    """Refuse YAML that ruamel loads but kube-scheduler's and kubectl's Go decoders do not (lint's BPL001).

    Dumped back, it would not be the text that was read: a Helm template's ``{{ .Values.ns }}`` is a flow
    mapping used as a key, which ruamel writes as ``{{.Values.ns: null}: null}``. Lines count from
    ``first_line``; ``where`` names a ConfigMap value, whose lines are counted within it.
    """
    _, error = parse_stream(str(text), "<migrate>")  # ruamel's scalar strings are str subclasses
    if error is not None:
        line = first_line + error.line - 1
        at = f"{where}: line {line} of the value: " if where else f"line {line}: "
        raise MigrateError(f"{at}not valid YAML: {error.message.removeprefix('invalid YAML: ')}")


def _one_line(problem: str) -> str:
    """ruamel's problem text on one line: a duplicate key's values (any length, any lines) are left out."""
    duplicate = re.match(r'(found duplicate key ".*?") with value "', problem, re.S)
    return (duplicate.group(1) if duplicate else problem).splitlines()[0]


def _kind(data: Any) -> str:
    if data is None:
        return "empty"
    if is_old_config(data):
        return "config"
    if is_map(data) and data.get("kind") == "KubeSchedulerConfiguration" and data.get("apiVersion") == V1:
        return "v1"
    if POLICY.matches(data):
        return "policy"
    if is_map(data) and data.get("kind") == "ConfigMap" and is_map(data.get("data")):
        kinds = {_inner_kind(v) for v in data["data"].values()}
        if kinds & {"config", "policy"}:
            return "configmap"
        if "v1" in kinds:
            return "configmap-v1"
    return "other"


def _inner_kind(value: Any) -> str:
    if not isinstance(value, str):
        return "other"
    try:
        data = json.loads(value) if value.lstrip().startswith("{") else _yaml(value).load(value)
    except RecursionError:
        raise MigrateError(f"a ConfigMap data value: {_TOO_DEEP}") from None
    except Exception:  # an unparsable value is simply not a config
        return "other"
    return _kind(_deep_refused(data, "a ConfigMap data value: "))


def _deep_refused(data: Any, where: str) -> Any:
    """``data``, unless it nests deeper than lint reads (migrating it would overflow the stack)."""
    if nested_deeper_than(data, MAX_DEPTH):
        raise MigrateError(f"{where}{_TOO_DEEP}")
    return data


def _migrate_document(body: str, data: Any, start: int,
                      kind: str) -> tuple[str | None, list[Note], list[tuple[int, str]]]:
    if kind == "v1":
        return None, [Note(UNCHANGED, "", f"already {V1}: nothing to change")], [(start, body)]
    if kind == "configmap-v1":
        return None, [Note(UNCHANGED, "", f"the ConfigMap's config is already {V1}: nothing to change")], []
    yaml = _yaml(body)
    if kind in ("config", "policy"):
        notes = Notes()
        out = _rewrite(data, kind, notes)
        text = _dump(yaml, out, notes.items)
        return text, notes.items, [(start, text)]
    notes = Notes()
    entries = data["data"]
    for key in list(entries.keys()):
        value = entries[key]
        inner = _inner_kind(value)
        if inner not in ("config", "policy"):
            continue
        where = f"ConfigMap data[{key!r}]"
        as_json = value.lstrip().startswith("{")
        if not as_json:
            _refuse_what_go_refuses(value, 1, where)
        inner_data = commented(json.loads(value)) if as_json else _yaml(value).load(value)
        inner_notes = Notes()
        migrated = _rewrite(inner_data, inner, inner_notes)
        new_key = key
        if inner == "policy" and key == POLICY_CONFIGMAP_KEY:
            new_key = V1_CONFIGMAP_KEY
            as_json = False
        text = (json.dumps(plain(migrated), indent=2) + "\n") if as_json else _dump(_yaml(value), migrated,
                                                                                   inner_notes.items)
        entries[key] = LiteralScalarString(text)
        if new_key != key:
            rename_key(entries, key, new_key)
            inner_notes.change("", f"key {key} renamed {new_key}: mount this ConfigMap into the scheduler Pod and "
                                   f"pass --config=<mount path>/{new_key} instead of --policy-configmap")
        notes.items.extend(Note(n.level, f"{where}: {n.where}" if n.where else where, n.message)
                           for n in inner_notes.items)
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue(), notes.items, [(start, stream.getvalue())]


def _rewrite(data: Any, kind: str, notes: Notes) -> Any:
    if kind == "policy":
        return migrate_policy(plain(data), notes)
    migrate_config(data, notes)
    return data


def _dump(yaml: YAML, data: CommentedMap, notes: list[Note]) -> str:
    lines = [HEADER] + [f"- {'ERROR: ' if n.level == ERROR else ''}{n.render()}" for n in notes]
    existing = data.ca.comment[1] if data.ca.comment and len(data.ca.comment) > 1 and data.ca.comment[1] else None
    data.yaml_set_start_comment("\n".join(lines))
    if existing:
        data.ca.comment[1] = data.ca.comment[1] + existing
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue()


def _migrate_json(text: str) -> Migration:
    try:
        data = _deep_refused(json.loads(text), "line 1: ")
    except RecursionError:
        raise MigrateError(f"line 1: {_TOO_DEEP}") from None
    except json.JSONDecodeError as exc:
        raise MigrateError(f"line {exc.lineno}: not valid JSON: {exc.msg}") from None
    kind = _kind(data)
    notes = Notes()
    if kind == "v1":
        return Migration(text, [Note(UNCHANGED, "", f"already {V1}: nothing to change")], False, [(1, text)])
    if kind not in ("config", "policy"):
        raise MigrateError("no KubeSchedulerConfiguration or legacy scheduler Policy found (nothing to migrate)")
    if kind == "config":
        data = commented(data)
    out = plain(_rewrite(data, kind, notes))
    rendered = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    return Migration(rendered, notes.items, True, [(1, rendered)])


__all__ = ["OLD_VERSIONS", "Migration", "migrate_text"]
