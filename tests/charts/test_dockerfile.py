"""The Dockerfile (which cannot be built here: no container engine) agrees with the chart and pyproject.toml."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def instructions(name: str) -> list[str]:
    """Arguments of every ``name`` instruction, continuation lines joined."""
    joined = re.sub(r"\\\n", " ", DOCKERFILE)
    return [m.group(1).strip() for m in re.finditer(rf"^{name}\s+(.*)$", joined, re.MULTILINE)]


def test_runtime_user_matches_the_charts_security_context() -> None:
    values = yaml.safe_load((ROOT / "charts/binpack-guard/values.yaml").read_text())
    pod = values["podSecurityContext"]
    assert instructions("USER")[-1] == f"{pod['runAsUser']}:{pod['runAsGroup']}"
    assert pod["runAsUser"] != 0


def test_entrypoint_is_the_console_script_that_serves(render: Any) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (entrypoint,) = json.loads(instructions("ENTRYPOINT")[-1])
    assert entrypoint in pyproject["project"]["scripts"]
    assert json.loads(instructions("CMD")[-1]) == ["serve"]
    container = render({}, "bg", "ns").one("Deployment")["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == [entrypoint]
    port = int(instructions("EXPOSE")[-1])
    assert container["ports"][0]["containerPort"] == port


def test_installs_the_webhook_extra_of_this_distribution_on_a_supported_python() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    name = pyproject["project"]["name"]
    assert "webhook" in pyproject["project"]["optional-dependencies"]
    assert any(f'"{name}[webhook]"' in run for run in instructions("RUN"))
    minimum = re.fullmatch(r">=\s*3\.(\d+)", pyproject["project"]["requires-python"])
    assert minimum is not None
    for base in instructions("FROM"):
        match = re.match(r"python:3\.(\d+)-slim", base)
        assert match is not None and int(match.group(1)) >= int(minimum.group(1)), base
    # every package the distribution ships is copied into the build stage
    includes = {p.rstrip("*") for p in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = {c.split()[0] for c in instructions("COPY") if not c.startswith("--from")}
    assert includes <= copied
    assert all((ROOT / c).exists() for c in copied if c not in {"pyproject.toml", "README.md"})


def test_chart_app_version_is_the_package_version() -> None:
    """The image tag defaults to appVersion, so it must name the version the image is built from."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    chart = yaml.safe_load((ROOT / "charts/binpack-guard/Chart.yaml").read_text())
    assert chart["appVersion"] == pyproject["project"]["version"]
