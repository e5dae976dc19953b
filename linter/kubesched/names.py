"""k8s.io/apimachinery name validation used by the scheduler config checks (exact messages)."""

from __future__ import annotations

import re

_QNAME = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QNAME_RE = re.compile(f"^{_QNAME}$")
_DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN = f"{_DNS1123_LABEL}(\\.{_DNS1123_LABEL})*"
_SUBDOMAIN_RE = re.compile(f"^{_DNS1123_SUBDOMAIN}$")
_QNAME_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
              "alphanumeric character")
_SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                  "and must start and end with an alphanumeric character")


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def is_dns1123_subdomain(value: str) -> list[str]:
    errs = []
    if len(value) > 253:
        errs.append("must be no more than 253 characters")
    if not _SUBDOMAIN_RE.match(value):
        errs.append(_regex_error(_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN, "example.com"))
    return errs


def is_qualified_name(value: str) -> list[str]:
    """``validation.IsQualifiedName``: the messages, empty when valid."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs += ["prefix part " + m for m in is_dns1123_subdomain(prefix)]
    else:
        return ["a qualified name " + _regex_error(_QNAME_MSG, _QNAME, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part must be no more than 63 characters")
    if not _QNAME_RE.match(name):
        errs.append("name part " + _regex_error(_QNAME_MSG, _QNAME, "MyName", "my.name", "123-abc"))
    return errs


def is_extended_resource_name(name: str) -> bool:
    native = "/" not in name or "kubernetes.io/" in name
    if native or name.startswith("requests."):
        return False
    return not is_qualified_name("requests." + name)
