"""kube-scheduler's ``buildExtenders``: ``ignoredByScheduler`` resources replace NodeResourcesFit's
``ignoredResources`` in every profile, and a profile without NodeResourcesFit args stops the scheduler
(``couldn't build extenders: can't find NodeResourcesFitArgs in plugin config``)."""

from __future__ import annotations

from linter.engine import lint_text, load_scheduler_model
from linter.findings import Severity
from linter.model import KubeSchedulerModel

H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
IGNORING = ("extenders:\n- urlPrefix: http://x\n  managedResources:\n"
            "  - {name: example.com/foo, ignoredByScheduler: true}\n  - {name: example.com/bar}\n"
            "- urlPrefix: http://y\n  managedResources:\n  - {name: example.com/qux, ignoredByScheduler: true}\n")
FIT_OFF = "  plugins:\n    multiPoint:\n      disabled: [{name: NodeResourcesFit}]\n"
TEXT = "couldn't build extenders: can't find NodeResourcesFitArgs in plugin config"


def _errors(text: str) -> list[tuple[str, int, str]]:
    return [(f.rule, f.line, f.detail or f.message) for f in lint_text(text, "c.yaml") if f.severity is Severity.ERROR]


def test_a_profile_without_fit_args_stops_the_scheduler_with_go_text() -> None:
    text = H + IGNORING + "profiles:\n- schedulerName: a\n- schedulerName: b\n" + FIT_OFF
    assert _errors(text) == [("BPL156", 13, TEXT)]
    (finding,) = lint_text(text, "c.yaml")
    hint = (" (profile b: add a NodeResourcesFit pluginConfig entry, `args: {}` will do; extenders[0] sets "
            "ignoredByScheduler)")
    assert finding.message == TEXT + hint


def test_the_extenders_error_comes_before_any_profile_error() -> None:
    # NewFit's args errors are never reached: buildExtenders runs before any profile is built
    text = (H + IGNORING + "profiles:\n- schedulerName: a\n" + FIT_OFF + "- schedulerName: b\n  pluginConfig:\n"
            "  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: Nope}}\n")
    errors = _errors(text)
    assert errors[0] == ("BPL156", 12, TEXT)
    assert [e[0] for e in errors[1:]] == ["BPL150"]


def test_fit_args_written_for_a_disabled_plugin_are_enough() -> None:
    text = H + IGNORING + "profiles:\n-" + FIT_OFF[1:] + "  pluginConfig:\n  - {name: NodeResourcesFit, args: {}}\n"
    assert _errors(text) == []


def test_without_ignored_resources_a_disabled_fit_is_fine() -> None:
    text = H + IGNORING.replace("ignoredByScheduler: true", "ignoredByScheduler: false") + "profiles:\n-" + FIT_OFF[1:]
    assert _errors(text) == []


def test_the_extenders_list_replaces_the_users_ignored_resources_in_the_model() -> None:
    text = (H + IGNORING + "profiles:\n- schedulerName: a\n  pluginConfig:\n  - name: NodeResourcesFit\n"
            "    args: {ignoredResources: [example.com/mine]}\n- schedulerName: b\n")
    model, findings = load_scheduler_model(text, "c.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    for profile in model.profiles:
        assert profile.fit is not None
        assert profile.fit.ignored_resources == ("example.com/foo", "example.com/qux")
        assert profile.fit.as_args()["ignoredResources"] == ["example.com/foo", "example.com/qux"]


def test_a_replaced_invalid_user_list_is_no_longer_checked() -> None:
    # NewFit validates the args after buildExtenders replaced the list, so the user's bad name never reaches it
    bad = H + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {ignoredResources: ['bad name!']}\n"
    assert [e[0] for e in _errors(bad)] == ["BPL150"]
    assert _errors(bad.replace("profiles:", IGNORING + "profiles:")) == []


# NewHTTPExtender -> makeTransport -> client-go TLSConfigFor: HasCA() && TLS.Insecure is refused before
# any file is read; buildExtenders returns it from its loop, before the ignoredByScheduler step.
INSECURE = "couldn't build extenders: specifying a root certificates file with the insecure flag is not allowed"


def test_an_insecure_extender_with_a_ca_stops_the_scheduler_first() -> None:
    text = (H + "extenders:\n- urlPrefix: http://x\n- urlPrefix: https://y\n  tlsConfig: {insecure: true, "
            "caData: Zm9v}\n  managedResources:\n  - {name: example.com/foo, ignoredByScheduler: true}\n"
            "profiles:\n- schedulerName: a\n" + FIT_OFF)
    assert _errors(text) == [("BPL157", 6, INSECURE)]


def test_the_insecure_with_ca_message_says_what_to_drop() -> None:
    (finding,) = lint_text(_extenders("{insecure: true, caFile: /ca.crt}"), "c.yaml")
    assert (finding.rule, finding.detail) == ("BPL157", INSECURE)
    assert finding.message == INSECURE + (" (extenders[0].tlsConfig: drop `insecure: true` to verify with the CA, "
                                          "or drop the CA)")


def test_insecure_without_a_ca_or_a_ca_with_https_is_accepted() -> None:
    for tls in ("{insecure: true}", "{insecure: false, caFile: /ca.crt}", "{insecure: true, caData: ''}"):
        text = H + f"extenders:\n- urlPrefix: https://x\n  enableHTTPS: true\n  tlsConfig: {tls}\n"
        assert _errors(text) == [], tls


CA_NOT_PEM = "couldn't build extenders: unable to load root certificates: unable to parse bytes as PEM block"
CERT_NOT_PEM = "couldn't build extenders: tls: failed to find any PEM data in certificate input"
PEM = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg=="  # "-----BEGIN CERTIFICATE-----\n": not judged further


def _extenders(*tls: str) -> str:
    return H + "extenders:\n" + "".join(f"- urlPrefix: https://e{i}\n  tlsConfig: {t}\n" for i, t in enumerate(tls))


def test_ca_data_without_a_pem_block_stops_the_scheduler() -> None:
    # base64 of "/etc/ca.crt": a path where the PEM text belongs
    assert _errors(_extenders("{caData: L2V0Yy9jYS5jcnQ=}")) == [("BPL158", 5, CA_NOT_PEM)]
    assert _errors(_extenders("{caData: [47, 120]}")) == [("BPL158", 5, CA_NOT_PEM)]  # "/x" as an array of bytes


def test_cert_data_without_a_pem_block_stops_the_scheduler_when_key_data_is_set() -> None:
    assert _errors(_extenders("{certData: Zm9v, keyData: YmFy}")) == [("BPL158", 5, CERT_NOT_PEM)]
    assert _errors(_extenders("{certData: Zm9v}")) == []  # no key: client-go makes no client certificate


def test_the_not_pem_messages_say_what_to_write() -> None:
    (ca,) = lint_text(_extenders("{caData: Zm9v}"), "c.yaml")
    (cert,) = lint_text(_extenders("{serverName: x}", "{certData: Zm9v, keyData: YmFy}"), "c.yaml")
    assert ca.message == CA_NOT_PEM + (
        " (extenders[0].tlsConfig.caData: write the base64 of a PEM certificate, or use caFile)")
    assert (cert.rule, cert.message) == ("BPL158", CERT_NOT_PEM + (
        " (extenders[1].tlsConfig.certData: write the base64 of a PEM certificate, or use certFile)"))


def test_the_first_extender_that_fails_is_the_one_reported() -> None:
    text = _extenders("{serverName: x}", "{caData: Zm9v, certData: Zm9v, keyData: Zm9v}",
                      "{insecure: true, caData: Zm9v}")
    assert _errors(text) == [("BPL158", 7, CA_NOT_PEM)]


def test_tls_data_with_a_pem_block_or_from_files_is_not_judged() -> None:
    assert _errors(_extenders(f"{{caData: {PEM}}}", f"{{certData: {PEM}, keyData: Zm9v}}")) == []
    # caFile is read first: its content decides, so later extenders are not judged either
    assert _errors(_extenders("{caFile: /ca.crt}", "{caData: Zm9v}")) == []
    assert _errors(_extenders("{certData: Zm9v, keyFile: /k.pem}")) == []


def test_tls_data_as_a_json_array_of_bytes_is_decoded() -> None:
    # encoding/json fills a []byte from an array of numbers too, each one a uint8
    assert _errors(_extenders("{insecure: true, caData: [47, 120]}")) == [("BPL157", 5, INSECURE)]
    wrong = ("json: cannot unmarshal number 300 into Go struct field ExtenderTLSConfig.extenders.tlsConfig.caData "
             "of type uint8")
    assert [(rule, detail) for rule, _, detail in _errors(_extenders("{caData: [47, 300]}"))] == [("BPL016", wrong)]


def test_the_fit_entry_an_extender_needs_is_not_reported_as_unused() -> None:
    # BPL156's fix (`args: {}` for a disabled NodeResourcesFit) must not draw BPL205 "neither validated nor used"
    text = H + IGNORING + "profiles:\n-" + FIT_OFF[1:] + "  pluginConfig:\n  - {name: NodeResourcesFit, args: {}}\n"
    assert lint_text(text, "c.yaml") == []


def test_unused_fit_args_an_extender_needs_the_entry_of_say_keep_it() -> None:
    text = (H + IGNORING + "profiles:\n-" + FIT_OFF[1:] + "  pluginConfig:\n  - name: NodeResourcesFit\n"
            "    args: {scoringStrategy: {type: MostAllocated}}\n")
    (finding,) = lint_text(text, "c.yaml")
    assert (finding.rule, finding.message) == ("BPL205", (
        "NodeResourcesFit is not enabled in profile 'default-scheduler': only the entry is needed (an extender "
        "sets ignoredByScheduler), these args are neither validated nor used: write `args: {}`"))


def test_tls_data_wrapped_over_lines_decodes_as_in_go() -> None:
    # encoding/base64 skips '\n' and '\r': base64 wrapped in a block scalar is the same bytes
    wrapped = "|\n" + "".join(f"      {PEM[i:i + 12]}\n" for i in range(0, len(PEM), 12))
    assert _errors(_extenders("\n    caData: " + wrapped + "    insecure: true")) == [("BPL157", 11, INSECURE)]


def test_tls_data_that_is_not_base64_names_gos_offset_and_what_to_write() -> None:
    (finding,) = lint_text(_extenders("{caData: /etc/ca.crt}"), "c.yaml")
    assert (finding.rule, finding.detail) == ("BPL016", "illegal base64 data at input byte 7")
    assert finding.message == ("illegal base64 data at input byte 7 (extenders[0].tlsConfig.caData is bytes: write "
                               "the base64 of the PEM text, or use caFile)")
