"""apimachinery's ObjectMeta validation of a cluster-scoped object, as kube-apiserver 1.36 runs it.

What the API server does to the metadata *before* validating (k8s.io/apiserver 1.36):

* ``metadata.namespace`` of a cluster-scoped object is cleared on create and on update
  (``EnsureObjectNamespaceMatchesRequestNamespace``), so a namespace is never an error;
* on create, a missing ``metadata.name`` is generated from ``generateName`` (``SimpleNameGenerator``:
  the prefix cut to 58 bytes plus 5 random characters) and the generated name is what gets
  validated. The random part is unknowable, so :func:`generated_name` stands it in as
  ``xxxxx`` (``x`` is one of the generator's characters, so the stand-in is judged exactly as
  every real generated name would be).

Then ``ValidateObjectMeta``: generateName (trailing dash masked), name, labels (key and value),
annotations (key, lower-cased, and the 256 KiB total); on update ``ValidateObjectMetaUpdate``
(name immutable, labels, annotations). Go walks the label and annotation maps in random order;
here they are reported in the manifest's order. Each error comes with the manifest path it is
about (the label's own key for label errors), for the linter's positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from linter.gofmt import FieldError, go_len
from linter.k8snames import label_value_errors, qualified_name_errors

Path = tuple[str, ...]
Located = tuple[FieldError, Path]  # a field error and the manifest path it is about

GENERATED_SUFFIX = "xxxxx"
MAX_GENERATED_BASE_LENGTH = 58  # names.MaxGeneratedNameLength: 63 - the 5 random characters
TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024

_LABELS, _ANNOTATIONS = ("metadata", "labels"), ("metadata", "annotations")


def metadata_of(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = obj.get("metadata")
    return meta if isinstance(meta, Mapping) else {}


def _str_field(meta: Mapping[str, Any], key: str) -> str:
    value = meta.get(key)
    return value if isinstance(value, str) else ""


def generated_name(generate_name: str) -> str:
    """The name the API server generates from ``generate_name``, its random part shown as ``xxxxx``."""
    base = generate_name.encode("utf-8", "surrogatepass")[:MAX_GENERATED_BASE_LENGTH]
    return base.decode("utf-8", "ignore") + GENERATED_SUFFIX


def effective_name(obj: Mapping[str, Any]) -> str:
    """The name the API server validates and stores: ``metadata.name``, else the generated one, else ``""``."""
    meta = metadata_of(obj)
    name = _str_field(meta, "name")
    generate_name = _str_field(meta, "generateName")
    return name or (generated_name(generate_name) if generate_name else "")


def _mask_trailing_dash(name: str) -> str:
    """``maskTrailingDash``: Go really drops two characters before appending ``a``."""
    return name[:-2] + "a" if len(name) > 1 and name.endswith("-") else name


def _string_map(meta: Mapping[str, Any], key: str) -> Iterator[tuple[str, str]]:
    """A ``map[string]string`` as Go decodes it (null values are ""); what it could not decode is skipped."""
    raw = meta.get(key)
    if not isinstance(raw, Mapping):
        return
    for k, v in raw.items():
        if isinstance(k, str) and (v is None or isinstance(v, str)):
            yield k, v or ""


def _go_lower(text: str) -> str:
    """``strings.ToLower`` (simple case mapping: U+0130 lowers to a plain ``i``, unlike Python's)."""
    return "".join("i" if ch == "\u0130" else ch.lower() for ch in text)


def _invalid_label(bad: str, detail: str) -> FieldError:
    return FieldError("Invalid value", "metadata.labels", bad, detail)


def label_errors(meta: Mapping[str, Any]) -> list[Located]:
    """``ValidateLabels``: per label its key errors, then its value errors."""
    errs: list[Located] = []
    for key, value in _string_map(meta, "labels"):
        where = (*_LABELS, key)
        errs.extend((_invalid_label(key, m), where) for m in qualified_name_errors(key))
        errs.extend((_invalid_label(value, m), where) for m in label_value_errors(value))
    return errs


def annotation_errors(meta: Mapping[str, Any]) -> list[Located]:
    """``ValidateAnnotations``: each key as a lower-cased qualified name, then the total size of keys and values."""
    errs: list[Located] = []
    size = 0
    for key, value in _string_map(meta, "annotations"):
        errs.extend((FieldError("Invalid value", "metadata.annotations", key, m), (*_ANNOTATIONS, key))
                    for m in qualified_name_errors(_go_lower(key)))
        size += go_len(key) + go_len(value)
    if size > TOTAL_ANNOTATION_SIZE_LIMIT:
        errs.append((FieldError("Too long", "metadata.annotations",
                                detail=f"may not be more than {TOTAL_ANNOTATION_SIZE_LIMIT} bytes"), _ANNOTATIONS))
    return errs


def create_errors(obj: Mapping[str, Any], name_errors: Callable[[str], list[str]]) -> list[Located]:
    """``ValidateObjectMeta`` of a cluster-scoped object on create, after the namespace is cleared and the
    name generated; ``name_errors`` is the kind's name check (e.g. ``IsDNS1123Subdomain``)."""
    meta = metadata_of(obj)
    errs: list[Located] = []
    generate_name = _str_field(meta, "generateName")
    if generate_name:
        errs.extend((FieldError("Invalid value", "metadata.generateName", generate_name, m),
                     ("metadata", "generateName")) for m in name_errors(_mask_trailing_dash(generate_name)))
    name = effective_name(obj)
    if not name:
        errs.append((FieldError("Required value", "metadata.name", detail="name or generateName is required"),
                     ("metadata", "name")))
    else:
        # a generated name is reported at generateName: the manifest has no name line
        where = ("metadata", "name") if _str_field(meta, "name") else ("metadata", "generateName")
        errs.extend((FieldError("Invalid value", "metadata.name", name, m), where) for m in name_errors(name))
    return errs + label_errors(meta) + annotation_errors(meta)


def update_errors(new: Mapping[str, Any], old: Mapping[str, Any]) -> list[FieldError]:
    """The ObjectMeta errors of an update, de-duplicated as the API server's message shows them.

    BeforeUpdate runs ``ValidateObjectMetaAccessor`` (its labels and annotations come first), then
    ``ValidateObjectMetaAccessorUpdate`` twice (once itself, once through the kind's update
    validation): name immutable, and labels/annotations again, which the message drops as repeats.
    """
    new_meta = metadata_of(new)
    errs = [e for e, _ in label_errors(new_meta) + annotation_errors(new_meta)]
    new_name, old_name = _str_field(new_meta, "name"), _str_field(metadata_of(old), "name")
    if new_name != old_name:
        errs.append(FieldError("Invalid value", "metadata.name", new_name, "field is immutable"))
    return errs
