"""kube-scheduler's ``validateExtenders``: shared by the kube-scheduler and legacy Policy wings.

The scheduler runs the same code on a KubeSchedulerConfiguration's and a 1.22 Policy's
``extenders``; it lives below both wings so neither imports the other.
"""

from __future__ import annotations

from typing import Any

from linter.gofmt import FieldError, Rendered, go_json
from linter.gozero import as_int, as_list, as_map, as_str
from linter.k8snames import (
    LABEL_KEY_NOUN,
    QUALIFIED_NAME_NOUN_1_22,
    is_extended_resource_name,
    qualified_name_errors,
)
from linter.source import Pointer


def extender_errors(extenders: Any, *, json_resource_names: bool = False) -> list[tuple[FieldError, Pointer]]:
    """``validateExtenders`` (the same code for KubeSchedulerConfiguration and the legacy Policy).

    A positive weight with a prioritizeVerb, valid unique managed resource names, at most one
    binder. Tolerant of wrong types (treated as Go's zero values) so the legacy Policy, which
    has no typed decode here, can pass its raw list.

    A name that is not a qualified name is reported with its ``v1.ResourceName`` value: 1.36's
    ``field.Error`` prints a non-``string`` type with json.Marshal (``json_resource_names``:
    ``<``, ``>``, ``&`` escaped), 1.22's printed it as ``%q`` does. A name with several '/' is
    "a valid label key ..." in 1.36 and "a qualified name ..." in 1.22.
    """
    out: list[tuple[FieldError, Pointer]] = []
    binders = 0
    seen: set[str] = set()
    noun = LABEL_KEY_NOUN if json_resource_names else QUALIFIED_NAME_NOUN_1_22
    for i, extender in enumerate(as_list(extenders)):
        ext = as_map(extender)
        weight = as_int(ext.get("weight"))
        if as_str(ext.get("prioritizeVerb")) and weight <= 0:
            out.append((FieldError("Invalid value", f"extenders[{i}].weight", weight,
                                   "must have a positive weight applied to it"), ("extenders", i, "weight")))
        if as_str(ext.get("bindVerb")):
            binders += 1
        for j, resource in enumerate(as_list(ext.get("managedResources"))):
            name = as_str(as_map(resource).get("name"))
            path, ptr = f"extenders[{i}].managedResources[{j}].name", ("extenders", i, "managedResources", j, "name")
            problems = qualified_name_errors(name, noun=noun)
            shown: str | Rendered = Rendered(go_json(name)) if json_resource_names else name
            out += [(FieldError("Invalid value", path, shown, m), ptr) for m in problems]
            if not problems and not is_extended_resource_name(name):  # this one is given string(name)
                out.append((FieldError("Invalid value", path, name, "is an invalid extended resource name"), ptr))
            if name in seen:
                out.append((FieldError("Invalid value", path, name, "duplicate extender managed resource name"), ptr))
            seen.add(name)
    if binders > 1:
        out.append((FieldError("Invalid value", "extenders", f"found {binders} extenders implementing bind",
                               "only one extender can implement bind"), ("extenders",)))
    return out

