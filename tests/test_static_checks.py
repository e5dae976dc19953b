"""The project's standing static checks, run as part of the one test command.

ruff must be clean on the whole repository, ``mypy --strict`` on the packages, and import-linter's contracts in
pyproject.toml must hold (linter never imports the webhook, flask, gunicorn or kubernetes; the wings
of the webhook stay apart; no import cycles; decisions stay pure). The structural checks below read the
import graph itself, so they hold even if someone loosens a contract: one kubernetes importer, numpy
only in the cluster state and not a core dependency; the format wings never import the rule layer;
every rule code string is written in exactly one module.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.slow
def test_ruff_is_clean() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    result = _run(sys.executable, "-m", "mypy", "--strict", "linter", "webhook", "schemas")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_import_contracts_hold() -> None:
    result = _run("lint-imports")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" not in result.stdout.lower().replace("0 broken", "")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("linter", "webhook", "schemas", include_external_packages=True)


def test_kubernetes_has_one_importer(graph: grimp.ImportGraph) -> None:
    assert graph.find_modules_that_directly_import("kubernetes") == {"webhook.cluster.kubeclient"}


def test_numpy_is_imported_by_the_cluster_state_only(graph: grimp.ImportGraph) -> None:
    importers = graph.find_modules_that_directly_import("numpy")
    assert importers, "the cluster state imports numpy; if this is empty the graph is not the project's"
    assert {m for m in importers if not m.startswith("linter.scoring.cluster.")} == set()


def test_numpy_is_a_webhook_dependency_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

    def names(requirements: list[str]) -> set[str]:
        return {r.split(">")[0].split("=")[0].split("[")[0].strip().lower() for r in requirements}

    assert "numpy" not in names(project["dependencies"])
    assert "numpy" in names(project["optional-dependencies"]["webhook"])



def test_no_format_wing_imports_the_rule_layer_or_another_wing(graph: grimp.ImportGraph) -> None:
    wings = sorted(m for m in graph.find_children("linter.formats") if graph.find_children(m))
    assert len(wings) >= 4, wings  # kubesched, policy, priorityclass, volcano
    for wing in wings:
        inside = {wing} | graph.find_descendants(wing)
        imported = {m for module in inside for m in graph.find_modules_directly_imported_by(module)}
        assert not {m for m in imported if m.startswith("linter.rules")}, wing
        assert not {m for m in imported if m.startswith("linter.formats.") and not m.startswith(wing)
                    and m != "linter.formats.base"}, wing

_CODE = re.compile(r"BPL[0-9]{3}")


def _code_literals(path: Path) -> set[str]:
    """Rule codes written as a whole string literal (``"BPL150"``) in one module.

    Prose is not counted: a docstring or comment may name a code (``BPL303 prints ...``);
    only a string whose entire value is a code is the code itself.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return {n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and _CODE.fullmatch(n.value)}


def test_every_rule_code_string_is_written_in_exactly_one_module() -> None:
    homes: dict[str, list[str]] = {}
    for package in ("linter", "webhook", "schemas"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for code in _code_literals(path):
                homes.setdefault(code, []).append(str(path.relative_to(ROOT)))
    repeated = {code: paths for code, paths in homes.items() if len(paths) > 1}
    assert not repeated, repeated
    from linter.rules import ALL_RULES

    assert {rule.CODE for rule in ALL_RULES} <= set(homes), "a rule code is not written as a literal anywhere"
    assert all(paths[0].endswith(("codes.py", "filecodes.py")) for paths in homes.values()), homes
