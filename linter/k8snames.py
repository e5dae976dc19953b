"""Kubernetes name checks with apimachinery's exact message texts (the one copy in the project).

``IsDNS1123Subdomain`` (object names, k8s.io/apimachinery/pkg/util/validation), ``IsQualifiedName``
and ``IsValidLabelValue`` (label keys and values: since 1.35 aliases of ``content.IsLabelKey`` and
``content.IsLabelValue`` in k8s.io/apimachinery/pkg/api/validate/content, whose length errors say
"bytes" where util/validation's say "characters") and ``IsExtendedResourceName``
(k8s.io/kubernetes/pkg/apis/core/v1/helper), as of 1.36. Each check returns the error messages,
empty when the value is valid. Patterns are matched with ``fullmatch``: Go's ``^...$`` does not
accept a trailing newline, Python's ``$`` would.
"""

from __future__ import annotations

import re

from linter.gofmt import go_len

DNS1123_SUBDOMAIN_MAX_LENGTH = 253
QUALIFIED_NAME_MAX_LENGTH = 63
# How IsQualifiedName names a value with more than one '/': 1.36's content.IsLabelKey says "a valid label key",
# 1.22's (the legacy Policy's) IsQualifiedName said "a qualified name".
LABEL_KEY_NOUN = "a valid label key"
QUALIFIED_NAME_NOUN_1_22 = "a qualified name"
LABEL_VALUE_MAX_LENGTH = 63

_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character"
)
_QNAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QNAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character"
)
_LABEL_VALUE_FMT = "(" + _QNAME_FMT + ")?"
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_DNS1123_SUBDOMAIN_RE = re.compile(_DNS1123_SUBDOMAIN_FMT)
_QNAME_RE = re.compile(_QNAME_FMT)
_LABEL_VALUE_RE = re.compile(_LABEL_VALUE_FMT)


def empty_error() -> str:
    return "must be non-empty"


def max_len_error(length: int) -> str:
    """``validation.MaxLenError`` (util/validation)."""
    return f"must be no more than {length} characters"


def content_max_len_error(length: int) -> str:
    """``content.MaxLenError``: the label-key and label-value checks' wording."""
    return f"must be no more than {length} bytes"


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """``validation.RegexError``: ``msg (e.g. 'a',  or 'b', regex used for validation is '...')``."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{example}', " for example in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def dns1123_subdomain_errors(value: str) -> list[str]:
    """``IsDNS1123Subdomain``: the length error (in bytes, as Go counts) and the pattern error, each when it applies."""
    return _subdomain_errors(value, max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))


def _subdomain_errors(value: str, too_long: str) -> list[str]:
    errs: list[str] = []
    if go_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(too_long)
    if not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errs.append(regex_error(_DNS1123_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def qualified_name_errors(value: str, *, noun: str = LABEL_KEY_NOUN) -> list[str]:
    """``IsQualifiedName`` (= ``content.IsLabelKey``): ``[prefix/]name`` with a DNS-1123 subdomain prefix.

    ``noun`` starts the message for a value with several '/' (:data:`QUALIFIED_NAME_NOUN_1_22` for 1.22).
    """
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + empty_error())
        else:
            too_long = content_max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH)
            errs.extend("prefix part " + m for m in _subdomain_errors(prefix, too_long))
    else:
        return [
            noun + " " + regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part " + empty_error())
    elif go_len(name) > QUALIFIED_NAME_MAX_LENGTH:
        errs.append("name part " + content_max_len_error(QUALIFIED_NAME_MAX_LENGTH))
    if not _QNAME_RE.fullmatch(name):
        errs.append("name part " + regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc"))
    return errs


def label_value_errors(value: str) -> list[str]:
    """``IsValidLabelValue`` (= ``content.IsLabelValue``): empty, or a qualified name's name part."""
    errs: list[str] = []
    if go_len(value) > LABEL_VALUE_MAX_LENGTH:
        errs.append(content_max_len_error(LABEL_VALUE_MAX_LENGTH))
    if not _LABEL_VALUE_RE.fullmatch(value):
        errs.append(regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def is_extended_resource_name(name: str) -> bool:
    """``v1helper.IsExtendedResourceName``: has a domain other than kubernetes.io, not ``requests.``."""
    native = "/" not in name or "kubernetes.io/" in name
    if native or name.startswith("requests."):
        return False
    return not qualified_name_errors("requests." + name)
