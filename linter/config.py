"""Project configuration: find it, read it, validate it; anything wrong is one ``ConfigError``.

The configuration lives in ``.binpack-lint.yaml`` (or ``.yml``) or in the ``[tool.binpack-lint]``
table of ``pyproject.toml``. Without ``--config`` the first of these found in the working
directory or one of its parents is used (in that order within a directory; a pyproject.toml
without the table is passed over). Keys::

    disable: [BPL201, BPL3]     # codes or prefixes (BPL3 = every BPL3xx), or ALL
    enable: [BPL301]            # wins over disable for the same rule
    severity: {BPL201: error}   # report a rule with another severity (error | warning)
    strict: true                # warnings fail the run too
    scheduler: scheduler-plugins   # the build kube-scheduler configs are for (default kube-scheduler)
    plugins:                    # plugins your own scheduler build registers on top of it
    - {name: MyPlugin, extensionPoints: [filter, score]}

Unknown keys, a key set twice, unknown codes and wrong types are errors, so a typo cannot silently
switch a check off.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from linter.findings import Severity
from linter.settings import PLUGIN_EXTENSION_POINTS, SCHEDULERS, CustomPlugins
from linter.textfile import TextFileError, read_text

YAML_NAMES = (".binpack-lint.yaml", ".binpack-lint.yml")
PYPROJECT = "pyproject.toml"
TOOL_TABLE = "binpack-lint"
KEYS = ("disable", "enable", "severity", "strict", "scheduler", "plugins")
_SELECTOR = re.compile(r"^(ALL|BPL\d{0,3})$")


class ConfigError(Exception):
    """A configuration (file or option) that cannot be used; ``str()`` is the one line to show."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        where = f"{path}:{line}: " if path and line else f"{path}: " if path else ""
        super().__init__(where + message)


@dataclass(frozen=True)
class ProjectConfig:
    """A validated configuration; ``path`` is None when no file was used."""

    path: str | None = None
    disable: frozenset[str] = frozenset()
    enable: frozenset[str] = frozenset()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    strict: bool = False
    scheduler: str | None = None  # None: not set in the file
    plugins: CustomPlugins = ()


def normalize_selector(selector: str) -> str:
    """``bpl201`` -> ``BPL201``, a rule's name -> its code; ValueError for anything that selects no rule."""
    value = selector.strip().upper()
    if (code := _code_of_name(selector)) is not None:
        return code
    if not _SELECTOR.match(value):
        raise ValueError(f"{selector!r} is not a rule code, prefix or name "
                         "(expected e.g. BPL201, BPL2, ALL or invalid-fit-args)")
    if len(value) == 6 and not _known(value):
        raise ValueError(f"unknown rule code {value}")
    return value


def _code_of_name(name: str) -> str | None:
    from linter import rules

    return rules.code_of_name(name)


def _known(code: str) -> bool:
    from linter import rules

    return code in rules.by_code() or code in rules.REDIRECTS


def discover(start: str) -> str | None:
    """The config file that applies to ``start`` (a directory), searching upwards; None if there is none."""
    directory = os.path.abspath(start)
    while True:
        for name in YAML_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
        pyproject = os.path.join(directory, PYPROJECT)
        if os.path.isfile(pyproject) and _has_tool_table(pyproject):
            return pyproject
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def load(path: str) -> ProjectConfig:
    """Read and validate one config file (YAML, or a pyproject.toml with the tool table)."""
    if os.path.basename(path).endswith(".toml"):
        table = _toml_table(path)
        return _validate(table or {}, path, lambda key: None)
    return _load_yaml(path)


MAX_CONFIG_FILE_BYTES = 1024 * 1024  # a project config; anything larger is a mistake, not a config


def _read_text(path: str) -> str:
    try:
        return read_text(path, MAX_CONFIG_FILE_BYTES)
    except TextFileError as exc:
        raise ConfigError(f"config file: {exc.reason}", path) from None


def _has_tool_table(path: str) -> bool:
    try:
        text = _read_text(path)
    except ConfigError:
        return False
    return TOOL_TABLE in text and _toml_table(path, text) is not None


def _toml_table(path: str, text: str | None = None) -> dict[str, Any] | None:
    import tomllib

    try:
        data = tomllib.loads(_read_text(path) if text is None else text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"invalid TOML: {exc}", path) from None
    tool = data.get("tool", {})
    table = tool.get(TOOL_TABLE) if isinstance(tool, dict) else None
    if table is None:
        if text is None:  # named explicitly with --config
            raise ConfigError(f"no [tool.{TOOL_TABLE}] table", path)
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"[tool.{TOOL_TABLE}] must be a table", path)
    return table


def _load_yaml(path: str) -> ProjectConfig:
    from linter.source import SourceError, parse_documents

    text = _read_text(path)
    try:
        documents = [d for d in parse_documents(text, path) if d.data is not None]
    except SourceError as exc:  # its message already says "invalid YAML: ..." when that is the problem
        raise ConfigError(exc.message, path, exc.line) from None
    if not documents:
        return ProjectConfig(path=path)
    if len(documents) > 1:
        raise ConfigError("expected one YAML document", path, documents[1].start_line)
    doc = documents[0]
    if not isinstance(doc.data, dict):
        raise ConfigError(f"expected a mapping of settings ({', '.join(KEYS)})", path, doc.start_line)
    if doc.duplicate_keys:  # the YAML loader keeps the last value: a setting written twice loses one silently
        dup = min(doc.duplicate_keys, key=lambda d: (d.line, d.column))
        where = ".".join(str(p) for p in (*dup.pointer, dup.key))
        raise ConfigError(f"duplicate key {where!r} (first set on line {dup.first_line}); set each key once",
                          path, dup.line)
    return _validate(doc.data, path, lambda pointer: doc.locate(pointer)[0])


LineOf = Callable[[tuple[str | int, ...]], int | None]


def _validate(data: dict[str, Any], path: str, line_of: LineOf) -> ProjectConfig:
    def fail(message: str, *pointer: str | int) -> ConfigError:
        return ConfigError(message, path, line_of(pointer))

    for key in data:
        if key not in KEYS:
            raise fail(f"unknown key {key!r} (expected one of: {', '.join(KEYS)})", key)
    selections: dict[str, frozenset[str]] = {}
    for key in ("disable", "enable"):
        value = data.get(key, [])
        if not isinstance(value, list):
            raise fail(f"{key!r} must be a list of rule codes", key)
        selected: set[str] = set()
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise fail(f"{key}[{i}] must be a rule code string, not {type(item).__name__}", key, i)
            try:
                selected.add(normalize_selector(item))
            except ValueError as exc:
                raise fail(f"{key}[{i}]: {exc}", key, i) from None
        selections[key] = frozenset(selected)
    severity = data.get("severity", {})
    if not isinstance(severity, dict):
        raise fail("'severity' must be a mapping of rule code to error or warning", "severity")
    overrides: dict[str, Severity] = {}
    for code, level in severity.items():
        try:
            normalized = normalize_selector(str(code))
        except ValueError as exc:
            raise fail(f"severity: {exc}", "severity", code) from None
        if len(normalized) != 6:
            raise fail(f"severity: {code!r} must be a full rule code such as BPL201", "severity", code)
        if level not in ("error", "warning"):
            raise fail(f"severity of {normalized} must be 'error' or 'warning', not {level!r}", "severity", code)
        overrides[normalized] = Severity(level)
    strict = data.get("strict", False)
    if not isinstance(strict, bool):
        raise fail("'strict' must be true or false", "strict")
    scheduler = data.get("scheduler")
    if scheduler is not None and scheduler not in SCHEDULERS:
        raise fail(f"'scheduler' must be one of: {', '.join(SCHEDULERS)} (got {scheduler!r})", "scheduler")
    return ProjectConfig(path, selections["disable"], selections["enable"], overrides, strict, scheduler,
                         _plugins(data.get("plugins", []), fail))


def _plugins(value: Any, fail: Callable[..., ConfigError]) -> CustomPlugins:
    """``plugins: [{name: X, extensionPoints: [filter, score]}]``: names unique, points known."""
    if not isinstance(value, list):
        raise fail("'plugins' must be a list of {name, extensionPoints} mappings", "plugins")
    out: list[tuple[str, tuple[str, ...]]] = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise fail(f"plugins[{i}] must be a mapping with 'name' and 'extensionPoints'", "plugins", i)
        unknown = [k for k in item if k not in ("name", "extensionPoints")]
        if unknown:
            raise fail(f"plugins[{i}]: unknown key {unknown[0]!r} (expected name, extensionPoints)", "plugins", i,
                       unknown[0])
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise fail(f"plugins[{i}].name must be a non-empty string", "plugins", i)
        if name in (n for n, _ in out):
            raise fail(f"plugins[{i}].name: {name!r} is declared twice", "plugins", i, "name")
        points = item.get("extensionPoints")
        if not isinstance(points, list) or not points:
            raise fail(f"plugins[{i}].extensionPoints must be a non-empty list of extension points", "plugins", i)
        for j, point in enumerate(points):
            if point not in PLUGIN_EXTENSION_POINTS:
                raise fail(f"plugins[{i}].extensionPoints[{j}]: {point!r} is not an extension point (expected one "
                           f"of: {', '.join(PLUGIN_EXTENSION_POINTS)})", "plugins", i, "extensionPoints", j)
        out.append((name, tuple(dict.fromkeys(points))))
    return tuple(out)
