"""``binpack-lint migrate`` as a user runs it: output, exit codes, --write, wrappers, comments, documents."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from linter import atomicwrite
from linter.cli import main
from tests.paths import SHARED

WILD = SHARED / "wild" / "files"
DATA = Path(__file__).resolve().parents[1] / "data" / "migrate"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["migrate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_prints_the_migrated_file_and_what_changed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(DATA / "seed-ja-rtcr-v1beta1.yaml"))
    assert code == 0
    data = yaml.safe_load(out)
    assert data["apiVersion"] == "kubescheduler.config.k8s.io/v1"
    assert isinstance(data["profiles"], list)
    assert data["profiles"][0]["pluginConfig"][0]["name"] == "NodeResourcesFit"
    assert "changed: profiles: was a mapping; now a list of one profile" in err
    assert all(line.startswith(str(DATA)) for line in err.splitlines())


def test_comments_are_kept_and_the_changes_are_written_as_comments(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(DATA / "commented-v1beta1.yaml"))
    assert code == 0
    for comment in ("# Scheduler for the batch pool.", "# the kind", "# bin-packing profile", "# strong packing",
                    "# gpus matter most"):
        assert comment in out
    assert "# - healthzBindAddress dropped: removed in v1beta3" in out
    assert "healthzBindAddress:" not in out


def test_comments_move_with_the_v1alpha1_fields_moved_into_the_profile(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.yaml"
    path.write_text("apiVersion: kubescheduler.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\n"
                    "schedulerName: bin-packer  # the pods ask for this one\n"
                    "plugins:  # resource scoring below\n  score:\n    disabled:\n    - name: ImageLocality\n")
    code, out, _ = run(capsys, str(path))
    assert code == 0
    assert "- schedulerName: bin-packer # the pods ask for this one\n" in out
    assert "  plugins: # resource scoring below\n" in out


def test_v1_file_is_left_alone(capsys: pytest.CaptureFixture[str]) -> None:
    path = WILD / "w-topologyspread-v1.yaml"
    code, out, err = run(capsys, str(path))
    assert code == 0 and out == path.read_text()
    assert err.startswith(f"{path}: unchanged: already kubescheduler.config.k8s.io/v1: nothing to change\n")


def test_write_replaces_the_file_atomically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "sched.yaml"
    target.write_text((DATA / "commented-v1beta1.yaml").read_text())
    target.chmod(0o640)
    _, expected, _ = run(capsys, str(target))
    code, out, err = run(capsys, "--write", str(target))
    assert code == 0 and out == ""
    assert target.read_text() == expected
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["sched.yaml"]  # no temporary file left behind
    assert err.endswith(f"{target}: written\n")
    assert run(capsys, "--write", str(target))[0] == 0 and target.read_text() == expected  # idempotent


def test_write_failure_keeps_the_original(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "sched.yaml"
    original = (DATA / "seed-ja-rtcr-v1beta1.yaml").read_text()
    target.write_text(original)

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomicwrite.os, "replace", refuse)
    code, _, err = run(capsys, "--write", str(target))
    assert code == 2 and "cannot write: No space left on device" in err
    assert target.read_text() == original and os.listdir(tmp_path) == ["sched.yaml"]


def test_configmap_wrapper_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    path = WILD / "sp-appgroup-configmap-v1beta3.yaml"
    code, out, _ = run(capsys, str(path))
    before, after = yaml.safe_load(path.read_text()), yaml.safe_load(out)
    assert after["kind"] == "ConfigMap" and after["metadata"] == before["metadata"]
    assert list(after["data"]) == ["scheduler-config.yaml"]
    inner = yaml.safe_load(after["data"]["scheduler-config.yaml"])
    assert inner["apiVersion"] == "kubescheduler.config.k8s.io/v1"
    assert "# A higher weight is given to NetworkOverhead" in out
    assert code == 1  # TopologicalSort and NetworkOverhead are scheduler-plugins plugins: BPL151 on stderr


def test_policy_configmap_key_is_renamed_and_said_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(DATA / "policy-configmap.yaml"))
    assert code == 0
    after = yaml.safe_load(out)
    assert list(after["data"]) == ["scheduler-config.yaml"]
    inner = yaml.safe_load(after["data"]["scheduler-config.yaml"])
    profile = inner["profiles"][0]
    assert {"name": "NodeResourcesFit", "weight": 3} in profile["plugins"]["score"]["enabled"]
    assert profile["pluginConfig"] == [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {
        "type": "MostAllocated"}}}]
    assert "key policy.cfg renamed scheduler-config.yaml" in err
    assert "# read with --policy-configmap" in out


def test_only_the_first_document_of_a_bare_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    second = ("---\n# kept as written\napiVersion: kubescheduler.config.k8s.io/v1beta2\n"
              "kind: KubeSchedulerConfiguration\n")
    target = tmp_path / "two.yaml"
    target.write_text((DATA / "seed-ja-rtcr-v1beta1.yaml").read_text() + second)
    code, out, err = run(capsys, str(target))
    assert code == 0 and out.endswith(second)
    assert "reads only the first YAML document: migrated it and left the other 1 as written" in err


def test_manifest_configmaps_are_migrated_and_the_rest_kept(capsys: pytest.CaptureFixture[str]) -> None:
    path = WILD / "web-my-scheduler-multidoc.yaml"
    code, out, _ = run(capsys, str(path))
    assert code == 0
    before, after = list(yaml.safe_load_all(path.read_text())), list(yaml.safe_load_all(out))
    assert [d["kind"] for d in after] == [d["kind"] for d in before]
    for b, a in zip(before, after, strict=True):
        if b["kind"] != "ConfigMap":
            assert a == b
    assert out.startswith(path.read_text().split("apiVersion: v1\ndata:")[0])


def test_json_policy_gives_json(capsys: pytest.CaptureFixture[str]) -> None:

    code, out, _ = run(capsys, str(DATA / "seed-alibaba-policy.json"))
    assert code == 0 and json.loads(out)["kind"] == "KubeSchedulerConfiguration"


def test_unfixable_config_still_prints_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(WILD / "k8s-perf-serviceaffinity-v1beta1.yaml"))
    assert code == 1
    assert yaml.safe_load(out)["apiVersion"] == "kubescheduler.config.k8s.io/v1"
    assert "error: profiles[0]: pluginConfig ServiceAffinity dropped: removed in v1beta3" in err


def test_unknown_plugin_is_reported_with_the_linter_finding(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(WILD / "w-reverse-sort-v1alpha2.yaml"))
    assert code == 1 and out
    assert 'error [BPL151] initializing profiles: creating profile for scheduler name default-scheduler: ' \
           'QueueSortPlugin "ReverseSort" does not exist' in err


@pytest.mark.parametrize(("content", "message"), [
    ("", "the file is empty: nothing to migrate"),
    ("a: [1\n", "line 2: not valid YAML"),
    ("{", "line 1: not valid JSON"),
    ("actions: enqueue\ntiers: []\n", "no KubeSchedulerConfiguration or legacy scheduler Policy found"),
    # ruamel quotes both values of a duplicate key, line breaks and all
    ("apiVersion: v1\nkind: ConfigMap\ndata:\n  a: |\n    x\n    y\n  a: b\n",
     'line 7: not valid YAML: found duplicate key "a"\n'),
])
def test_input_errors_are_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                                          message: str) -> None:
    target = tmp_path / "in.yaml"
    target.write_text(content)
    code, out, err = run(capsys, "--write", str(target))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith(f"{target}: error: ")
    assert target.read_text() == content


_COMPLEX_KEY = "not valid YAML: a mapping or sequence cannot be used as a mapping key"


@pytest.mark.parametrize(("content", "message"), [
    # trevorbox/secondary-scheduler helm/secondary-scheduler/templates/configmap-secondary-scheduler-config.yaml
    # (unrendered): the embedded config came back with resourceNamespace: {{.Release.Namespace: null}: null}
    ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: secondary-scheduler-config\ndata:\n  config.yaml: |\n"
     "    apiVersion: kubescheduler.config.k8s.io/v1beta3\n    kind: KubeSchedulerConfiguration\n"
     "    leaderElection:\n      leaderElect: true\n      resourceNamespace: {{ .Release.Namespace }}\n",
     f"error: ConfigMap data['config.yaml']: line 5 of the value: {_COMPLEX_KEY}"),
    # koordinator-sh/website docs/user-manuals/capacity-scheduling.md (a chart template): the ConfigMap's own
    # metadata came back as namespace: {{.Values.installation.namespace: null}: null}
    ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: koord-scheduler-config\n"
     "  namespace: {{ .Values.installation.namespace }}\ndata:\n  koord-scheduler-config: |\n"
     "    apiVersion: kubescheduler.config.k8s.io/v1beta2\n    kind: KubeSchedulerConfiguration\n",
     f"error: line 5: {_COMPLEX_KEY}"),
    ("apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n"
     "leaderElection:\n  resourceNamespace: {{ .Release.Namespace }}\n", f"error: line 4: {_COMPLEX_KEY}"),
], ids=["configmap-value", "configmap-metadata", "bare-config"])
def test_yaml_kube_scheduler_refuses_is_never_rewritten(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        content: str, message: str) -> None:
    """ruamel loads a Helm template's ``{{ .Values.x }}`` (a mapping used as a key), the Go decoders refuse it
    (lint: BPL001); rewriting the file mangled every template in the document migrate dumped back."""
    target = tmp_path / "in.yaml"
    target.write_text(content)
    code, out, err = run(capsys, "--write", str(target))
    assert (code, out, err) == (2, "", f"{target}: {message}\n")
    assert target.read_text() == content


_V1BETA1_HEAD = "apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\nprofiles:\n"


@pytest.mark.parametrize(("content", "code", "message"), [
    # an apiVersion that is a mapping or a list names no version: nothing to migrate (it was an internal error)
    ("apiVersion: {}\nkind: KubeSchedulerConfiguration\n", 2,
     "error: no KubeSchedulerConfiguration or legacy scheduler Policy found (nothing to migrate)"),
    ("apiVersion: [kubescheduler.config.k8s.io/v1beta1]\nkind: KubeSchedulerConfiguration\n", 2,
     "error: no KubeSchedulerConfiguration or legacy scheduler Policy found (nothing to migrate)"),
    # args whose kind is a list: left as written, and the lint of the result says why kube-scheduler refuses it
    (_V1BETA1_HEAD + "- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
     "      apiVersion: kubescheduler.config.k8s.io/v1beta1\n      kind: [NodeResourcesFitArgs]\n", 1,
     "error [BPL017] decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeResourcesFit: couldn't get "
     "version/kind; json parse error: json: cannot unmarshal array into Go struct field .kind of type string"),
    # a resources item that is no mapping, beside a weight over 100: kept as written, the others still scaled
    (_V1BETA1_HEAD + "- pluginConfig:\n  - name: NodeResourcesMostAllocated\n    args:\n      resources:\n"
     "      - [cpu]\n      - {name: memory, weight: 200}\n", 1,
     "error [BPL016] decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeResourcesFit: json: cannot "
     "unmarshal array into Go struct field ScoringStrategy.scoringStrategy.resources of type v1.ResourceSpec"),
])
def test_values_of_the_wrong_type_are_reported_not_an_internal_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, code: int, message: str) -> None:
    target = tmp_path / "in.yaml"
    target.write_text(content)
    got, out, err = run(capsys, "--write", str(target))
    assert "internal error" not in err
    assert got == code and message in err
    if code == 2:
        assert out == "" and err.count("\n") == 1 and target.read_text() == content
    else:
        assert yaml.safe_load(target.read_text())["apiVersion"] == "kubescheduler.config.k8s.io/v1"


def _policy_json(depth: int) -> str:
    """A Policy whose predicates nest ``depth`` levels in all (the document is level 1)."""
    return '{"kind": "Policy", "apiVersion": "v1", "predicates": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


@pytest.mark.parametrize(("name", "content", "message"), [
    # json.loads and ruamel overflow the stack a few hundred levels deep (an internal error before)
    ("deep.json", _policy_json(5000), "error: line 1: nested deeper than 200 levels"),
    ("deep.yaml", "kind: Policy\napiVersion: v1\npredicates: " + "[" * 4999 + "]" * 4999 + "\n",
     "error: line 1: nested deeper than 200 levels"),
    # ... and so did a JSON value within lint's limit once rebuilt with round-trip containers
    ("deep.json", _policy_json(500), "error: line 1: nested deeper than 200 levels"),
    ("configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  policy.cfg: "
     + json.dumps(_policy_json(201)) + "\n", "error: a ConfigMap data value: nested deeper than 200 levels"),
], ids=["json-5000", "yaml-5000", "json-500", "configmap-201"])
def test_nesting_deeper_than_lint_reads_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          name: str, content: str, message: str) -> None:
    target = tmp_path / name
    target.write_text(content)
    code, out, err = run(capsys, "--write", str(target))
    assert (code, out, err) == (2, "", f"{target}: {message}\n")
    assert target.read_text() == content


def test_nesting_at_lint_s_limit_is_migrated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 200 levels, inside a ConfigMap: rebuilding the value one stack frame per level leaves room for it
    target = tmp_path / "configmap.yaml"
    target.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  policy.cfg: "
                      + json.dumps(_policy_json(200)) + "\n")
    code, _, err = run(capsys, "--write", str(target))
    assert code == 0 and "internal error" not in err
    assert "scheduler-config.yaml" in yaml.safe_load(target.read_text())["data"]


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "nope.yaml"))
    assert code == 2 and err == f"{tmp_path / 'nope.yaml'}: error: cannot read: No such file or directory\n"


def test_help_and_the_console_script() -> None:
    result = subprocess.run([sys.executable, "-m", "linter", "migrate", "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0
    assert "--write" in result.stdout and "Exit codes: 0" in result.stdout
    top = subprocess.run([sys.executable, "-m", "linter", "--help"], capture_output=True, text=True, check=False)
    assert "migrate             rewrite a removed-version scheduler config" in top.stdout
    lint = subprocess.run([sys.executable, "-m", "linter", "lint", "--help"], capture_output=True, text=True,
                          check=False)
    assert "'migrate FILE'" in lint.stdout


def test_json_config_inside_a_configmap_stays_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:

    target = tmp_path / "cm.yaml"
    target.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\ndata:\n  config.json: "
                      "'{\"apiVersion\": \"kubescheduler.config.k8s.io/v1beta3\", \"kind\": "
                      "\"KubeSchedulerConfiguration\", \"profiles\": [{\"schedulerName\": \"x\"}]}'\n")
    code, out, _ = run(capsys, str(target))
    assert code == 0
    inner = json.loads(yaml.safe_load(out)["data"]["config.json"])
    assert inner == {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                     "profiles": [{"schedulerName": "x"}]}


def test_out_of_tree_plugins_need_the_build_declared(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(WILD / "sp-doc-tlp-1.yaml")
    code, _, err = run(capsys, path)
    assert code == 1 and 'ScorePlugin "TargetLoadPacking" does not exist' in err
    code, out, err = run(capsys, "--scheduler", "scheduler-plugins", path)
    assert code == 0, err
    migrated = yaml.safe_load(out)
    assert migrated["apiVersion"] == "kubescheduler.config.k8s.io/v1"
    assert migrated["profiles"][0]["plugins"]["score"]["enabled"] == [{"name": "TargetLoadPacking"}]
    assert "BPL151" not in err


def test_the_build_still_judges_out_of_tree_args(capsys: pytest.CaptureFixture[str]) -> None:
    # scheduler-plugins no longer has deniedPGExpirationTimeSeconds: its strict decoding refuses the v1beta2 args
    code, _, err = run(capsys, "--scheduler", "scheduler-plugins", str(WILD / "sp-hist-coscheduling-v1beta2.yaml"))
    assert code == 1
    assert 'decoding args for plugin Coscheduling: strict decoding error: unknown field ' \
           '"deniedPGExpirationTimeSeconds"' in err
    assert "BPL151" not in err


def test_project_config_declares_the_build_and_own_plugins(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "sched.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n"
                      "profiles:\n- schedulerName: packer\n  plugins:\n    score:\n      enabled:\n"
                      "      - name: PodState\n      - name: MyScore\n", encoding="utf-8")
    project = tmp_path / ".binpack-lint.yaml"
    project.write_text("scheduler: scheduler-plugins\nplugins:\n- name: MyScore\n  extensionPoints: [score]\n",
                       encoding="utf-8")
    code, out, err = run(capsys, "--project-config", str(project), str(config))
    assert code == 0, err
    assert [e["name"] for e in yaml.safe_load(out)["profiles"][0]["plugins"]["score"]["enabled"]] == \
        ["PodState", "MyScore"]
    code, _, err = run(capsys, "--project-config", str(project), "--scheduler", "kube-scheduler", str(config))
    assert code == 1 and 'ScorePlugin "PodState" does not exist' in err
