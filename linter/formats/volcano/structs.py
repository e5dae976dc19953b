"""The map fields of Volcano's conf structs when a key is stored into them more than once.

yaml.v2 decodes a repeated struct field (written twice, or brought again by a merge key
``<<``) into the value the field already holds. For most fields that is an overwrite, but a
map field that already holds a map keeps it and gets the new keys added (``decoder.mapping``
makes a new map only when the field is nil); a null empties the field. In ``conf`` the map
fields are ``PluginOption.Arguments``, ``Configuration.Arguments`` and ``metrics``, so

    - name: binpack
      <<: *defaults            # defaults: {arguments: {binpack.weight: 10}}
      arguments: {binpack.cpu: 2}

gives binpack both arguments, where a YAML merge-key reading would drop the weight.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from linter.source import Document, Pointer

_MAP_FIELDS = {"arguments"}  # in PluginOption and Configuration
_ROOT_MAP_FIELDS = {"metrics"}


def struct_map_field(pointer: Pointer, key: str) -> bool:
    """Is ``key`` of the mapping at ``pointer`` one of the conf structs' map fields?"""
    if not pointer:
        return key in _ROOT_MAP_FIELDS
    plugin = len(pointer) == 4 and pointer[0] == "tiers" and pointer[2] == "plugins"
    configuration = len(pointer) == 2 and pointer[0] == "configurations"
    return (plugin or configuration) and key in _MAP_FIELDS


def _combined(values: list[Any]) -> Any:
    out: dict[str, Any] | None = None
    for value in values:
        if value is None:
            out = None
        elif isinstance(value, dict):
            out = {**(out or {}), **value}
        # anything else is a type error yaml.v2 reports (BPL060); the field keeps what it held
    return out


def _with_maps(mapping: Any, keys: set[str], repeated: dict[int, dict[str, list[Any]]]) -> Any:
    stored = repeated.get(id(mapping)) if isinstance(mapping, dict) else None
    if not stored or not keys & stored.keys():
        return mapping
    return {**mapping, **{k: _combined(v) for k, v in stored.items() if k in keys}}


def struct_view(document: Document) -> Document:
    """``document`` with the conf's map fields as Volcano fills them (the same document when no map
    field is stored twice)."""
    data, repeated = document.data, document.repeated
    if not repeated or not isinstance(data, dict):
        return document
    view = _with_maps(data, _ROOT_MAP_FIELDS, repeated)
    tiers = view.get("tiers")
    if isinstance(tiers, list):
        view = {**view, "tiers": [
            {**tier, "plugins": [_with_maps(option, _MAP_FIELDS, repeated) for option in tier["plugins"]]}
            if isinstance(tier, dict) and isinstance(tier.get("plugins"), list) else tier
            for tier in tiers]}
    configurations = view.get("configurations")
    if isinstance(configurations, list):
        view = {**view, "configurations": [_with_maps(item, _MAP_FIELDS, repeated) for item in configurations]}
    return dataclasses.replace(document, data=view)
