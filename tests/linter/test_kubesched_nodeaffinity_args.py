"""NodeAffinity ``addedAffinity``: the parse errors of kube-scheduler 1.36's ``ValidateNodeAffinityArgs``.

Expected texts follow k8s.io/component-helpers ``nodeaffinity`` and apimachinery ``labels.NewRequirement``
(v0.36.2): paths of preferred terms have no ``preference`` element, values of label requirements are
checked as label values under ``values[i][key]``, ``[]string`` values print as JSON (nil -> ``null``).
"""

from __future__ import annotations

from linter.engine import lint_text

H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
ARGS = "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n"
PATH = "profiles[0].pluginConfig[0].args.addedAffinity."
REQ = PATH + "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
PREF = PATH + "preferredDuringSchedulingIgnoredDuringExecution[0]."
VALUE_REGEX = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
               "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
               "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")


def _errors(body: str) -> list[str]:
    findings = [f for f in lint_text(H + ARGS + body, "config.yaml") if f.severity.name == "ERROR"]
    assert {f.rule for f in findings} <= {"BPL108"}, findings
    return [f.detail or f.message for f in findings]


def test_an_in_requirement_without_values_is_refused() -> None:
    body = ("        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms:\n"
            "          - matchExpressions:\n            - {key: zone, operator: In}\n")
    assert _errors(body) == [
        REQ + "matchExpressions[0].values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"]


def test_every_parse_error_in_the_schedulers_order_the_first_finding_carrying_them_all() -> None:
    body = ("        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms:\n"
            "          - matchExpressions:\n"
            "            - {key: zone, operator: Exists, values: [x]}\n"
            "            - {key: zone, operator: Near}\n"
            "            - {key: gen, operator: Gt, values: [\"a<b\", \"2\"]}\n"
            "            matchFields:\n"
            "            - {key: metadata.name, operator: Exists}\n"
            "            - {key: anything, operator: In, values: []}\n"
            "          - {}\n"
            "        preferredDuringSchedulingIgnoredDuringExecution:\n"
            "        - weight: 500\n          preference:\n            matchFields:\n"
            "            - {key: metadata.name, operator: NotIn, values: [a, b]}\n")
    expected = [
        REQ + 'matchExpressions[0].values: Invalid value: ["x"]: values set must be empty for exists and does not '
              'exist',
        REQ + 'matchExpressions[1].operator: Unsupported value: "Near": supported values: "In", "NotIn", "Exists", '
              '"DoesNotExist", "Gt", "Lt"',
        REQ + 'matchExpressions[2].values: Invalid value: ["a\\u003cb","2"]: for \'Gt\', \'Lt\' operators, exactly '
              'one value is required',
        REQ + "matchExpressions[2].values[0]: Invalid value: \"a<b\": for 'Gt', 'Lt' operators, the value must be "
              "an integer",
        REQ + 'matchExpressions[2].values[0][gen]: Invalid value: "a<b": ' + VALUE_REGEX,
        REQ + 'matchFields[0].operator: Unsupported value: "Exists": supported values: "In", "NotIn"',
        REQ + "matchFields[1].values: Invalid value: []: must have one element",
        PREF + 'matchFields[0].values: Invalid value: ["a","b"]: must have one element',
    ]
    errors = _errors(body)
    assert errors[0] == "[" + ", ".join(expected) + "]"
    assert sorted(errors[1:]) == sorted(expected[1:])


def test_an_invalid_key_is_one_error_with_the_messages_joined() -> None:
    body = ("        preferredDuringSchedulingIgnoredDuringExecution:\n        - weight: 1\n          preference:\n"
            "            matchExpressions:\n            - {key: \"/a b\", operator: Exists}\n")
    assert _errors(body) == [
        PREF + 'matchExpressions[0].key: Invalid value: "/a b": prefix part must be non-empty; name part must '
               "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
               "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
               "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]


def test_what_the_scheduler_accepts_passes() -> None:
    # a preferred term of weight 0 is skipped unparsed; weights are not range-checked; matchFields keys are free;
    # Gt takes any int64 (a sign would fail the label-value check)
    body = ("        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms:\n"
            "          - matchExpressions:\n"
            "            - {key: example.com/gen, operator: Gt, values: [\"9223372036854775807\"]}\n"
            "            matchFields:\n            - {key: spec.anything, operator: NotIn, values: [n1]}\n"
            "          - {}\n"
            "        preferredDuringSchedulingIgnoredDuringExecution:\n"
            "        - weight: 0\n          preference:\n            matchExpressions:\n"
            "            - {key: zone, operator: Near}\n"
            "        - weight: 1000\n          preference:\n            matchExpressions:\n"
            "            - {key: zone, operator: In, values: [a]}\n")
    assert _errors(body) == []


def test_gt_with_an_out_of_range_value_is_not_an_integer() -> None:
    body = ("        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms:\n"
            "          - matchExpressions:\n"
            "            - {key: gen, operator: Lt, values: [\"9223372036854775808\"]}\n")
    assert _errors(body) == [
        REQ + "matchExpressions[0].values[0]: Invalid value: \"9223372036854775808\": for 'Gt', 'Lt' operators, "
              "the value must be an integer"]
