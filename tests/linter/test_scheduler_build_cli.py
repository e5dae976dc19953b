"""``--scheduler`` and the project config's ``scheduler``/``plugins``, through the real commands."""

from __future__ import annotations

import json
from pathlib import Path

from lint_cli_helpers import assert_no_traceback, run_cli
from paths import ROOT

from linter.model import KubeSchedulerModel
from linter.settings import LintSettings

COSCHEDULING = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{name: Coscheduling}]
    queueSort:
      enabled: [{name: Coscheduling}]
      disabled: [{name: "*"}]
  pluginConfig:
  - name: Coscheduling
    args: {permitWaitingTimeSeconds: 10}
"""
MINE_AT = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    {point}:
      enabled: [{{name: MyPlugin}}]
"""
TLP = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    score:
      enabled: [{name: TargetLoadPacking, weight: 3}]
  pluginConfig:
  - name: TargetLoadPacking
"""


def _rules(stdout: str) -> list[str]:
    return [f["rule"] for f in json.loads(stdout)["findings"]]


def test_scheduler_option(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(COSCHEDULING)
    plain = run_cli(["-f", "json", "--no-config", "c.yaml"], cwd=tmp_path)
    assert (plain.code, _rules(plain.stdout)) == (1, ["BPL151"])
    custom = run_cli(["-f", "json", "--no-config", "--scheduler", "scheduler-plugins", "c.yaml"], cwd=tmp_path)
    assert (custom.code, _rules(custom.stdout)) == (0, [])
    wrong = run_cli(["--scheduler", "volcano", "c.yaml"], cwd=tmp_path)
    assert wrong.code == 2 and "invalid choice: 'volcano'" in wrong.stderr


def test_scheduler_in_the_project_config(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(COSCHEDULING)
    (tmp_path / ".binpack-lint.yaml").write_text("scheduler: scheduler-plugins\n")
    assert run_cli(["c.yaml"], cwd=tmp_path).code == 0
    # the command line wins over the file
    assert run_cli(["--scheduler", "kube-scheduler", "c.yaml"], cwd=tmp_path).code == 1


def test_declared_plugins(tmp_path: Path) -> None:
    (tmp_path / ".binpack-lint.yaml").write_text("plugins:\n- name: MyPlugin\n  extensionPoints: [filter, score]\n")
    (tmp_path / "score.yaml").write_text(MINE_AT.format(point="score"))
    (tmp_path / "permit.yaml").write_text(MINE_AT.format(point="permit"))
    assert run_cli(["score.yaml"], cwd=tmp_path).code == 0
    result = run_cli(["-f", "json", "permit.yaml"], cwd=tmp_path)
    assert (result.code, _rules(result.stdout)) == (1, ["BPL152"])
    assert 'plugin \\"MyPlugin\\" does not extend PermitPlugin plugin' in result.stdout
    (tmp_path / "typo.yaml").write_text(MINE_AT.format(point="score").replace("MyPlugin", "MyPlugn"))
    typo = run_cli(["-f", "json", "typo.yaml"], cwd=tmp_path)
    assert 'does not exist (did you mean \\"MyPlugin\\"?)' in typo.stdout


def test_bad_plugin_declarations_are_one_line_errors(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(COSCHEDULING)
    for text, message in (
        ("plugins:\n- name: MyPlugin\n  extensionPoints: [scoring]\n",
         "plugins[0].extensionPoints[0]: 'scoring' is not an extension point"),
        ("plugins:\n- name: MyPlugin\n", "plugins[0].extensionPoints must be a non-empty list"),
        ("plugins:\n- {name: A, extensionPoints: [score]}\n- {name: A, extensionPoints: [filter]}\n",
         "plugins[1].name: 'A' is declared twice"),
        ("plugins:\n- {name: A, extensionPoint: [score]}\n", "plugins[0]: unknown key 'extensionPoint'"),
        ("plugins: MyPlugin\n", "'plugins' must be a list"),
        ("scheduler: vanilla\n", "'scheduler' must be one of: kube-scheduler, scheduler-plugins"),
        ("plugins:\n- {name: NodeResourcesFit, extensionPoints: [score]}\n",
         "plugins: 'NodeResourcesFit' is already registered by kube-scheduler"),
        ("scheduler: scheduler-plugins\nplugins:\n- {name: Coscheduling, extensionPoints: [score]}\n",
         "plugins: 'Coscheduling' is already registered by scheduler-plugins"),
    ):
        (tmp_path / ".binpack-lint.yaml").write_text(text)
        result = run_cli(["c.yaml"], cwd=tmp_path)
        assert_no_traceback(result)
        assert result.code == 2, text
        assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr


def test_explain_names_the_out_of_tree_scores_it_leaves_out(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(TLP)
    examples = ROOT / "examples" / "explain"
    base = ["explain", "--config", "c.yaml", "--cluster", str(examples / "docs-cluster.yaml"),
            "--pod", str(examples / "docs-pod.yaml")]
    plain = run_cli(base, cwd=tmp_path)
    assert plain.code == 1 and "TargetLoadPacking is a kubernetes-sigs/scheduler-plugins plugin" in plain.stderr
    text = run_cli([*base, "--scheduler", "scheduler-plugins"], cwd=tmp_path)
    assert text.code == 0, text.stderr
    assert "not modelled, left out of every total: the scores of TargetLoadPacking (weight 3)" in text.stdout
    doc = json.loads(run_cli([*base, "--scheduler", "scheduler-plugins", "-f", "json"], cwd=tmp_path).stdout)
    assert doc["notModelledScorePlugins"] == [{"name": "TargetLoadPacking", "weight": 3}]
    fit = next(n for n in doc["nodes"] if n["name"] == "node2")
    in_tree = fit["weightedScore"] + fit["balancedScore"] + fit["taintTolerationScore"] * doc["taintTolerationWeight"]
    assert fit["total"] == in_tree  # the in-tree scores only (NodeAffinity skips this pod)


def test_model_lists_out_of_tree_score_plugins() -> None:
    from linter.engine import load_scheduler_model

    model, findings = load_scheduler_model(TLP, "c.yaml", LintSettings(scheduler="scheduler-plugins"))
    assert isinstance(model, KubeSchedulerModel), findings
    assert model.profiles[0].unmodelled_scores == {"TargetLoadPacking": 3}
    assert model.profiles[0].fit is not None  # in-tree scores are still modelled
