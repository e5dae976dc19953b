"""How Go's yaml.v2 fills one mapping, merge keys (``<<``) included, replayed on parsed entries.

yaml.v2's decoder (``decoder.mapping``) walks a mapping's entries in document order and stores
every key through ``setMapIndex``. A ``<<`` entry does not wait for the end: ``decoder.merge``
decodes the merged mapping *into the same map* at that point (for a sequence of mappings, from
its last element to its first). Hence, unlike the YAML merge-key spec that PyYAML follows:

* non-strict decoding (``yaml.Unmarshal``, Volcano; ``YAMLToJSON``, kube-scheduler's values):
  a later store overwrites, so ``a: 1`` then ``<<: {a: 2}`` gives 2, and in ``<<: [*x, *y]``
  the earlier element wins;
* strict decoding (``UnmarshalStrict``, kube-scheduler's strict pass): any store of a key that
  is already present is ``line N: key "K" already set in map``, N being the line of the value
  being stored, whether the key came from a merge or not.

Decoding a node again (an alias, a merged mapping) reports its own duplicates again, as Go does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

Pointer = tuple[str | int, ...]

MERGE_NEEDS_MAPS = "map merge requires map or sequence of maps as the value"


@dataclass(frozen=True)
class DuplicateKey:
    """A key stored into a mapping that already holds it (yaml.v2's ``already set in map``)."""

    pointer: Pointer  # pointer of the mapping that holds the key twice
    key: str
    line: int  # where to point: the repeated key, or the ``<<`` that merged it in
    column: int
    first_line: int  # the line of the key stored first
    value_line: int = 0  # the line yaml.v2 names: that of the value being stored
    merge_line: int = 0  # the ``<<`` that stored it (0: written in the mapping itself)
    first_value_line: int = 0  # the line of the value stored first

    @property
    def go_line(self) -> int:
        return self.value_line or self.line


class Store(NamedTuple):  # a tuple: one per mapping entry of every document, so cheap to make
    """One ``key: value`` written in a mapping: what yaml.v2 stores, and where."""

    key: str
    value: Any
    key_line: int
    key_column: int
    value_line: int
    owner: Pointer = ()  # the mapping it is written in (for a merged key, the merged mapping)
    node: tuple[int, int] = (0, 0)  # where the node yaml.v2 decodes starts: for an alias, the anchored one


class Merge(NamedTuple):
    """A ``<<`` entry; ``alias`` when its value is an alias (yaml.v2 then wants a mapping, not a list)."""

    value: Any
    alias: bool
    line: int
    column: int


@dataclass
class Filled:
    """A finished mapping: its stores in yaml.v2's order (merges expanded), the duplicates decoding it
    reports (nested ones first, in decoding order), and every value of each key stored more than once."""

    stores: list[Store]
    duplicates: list[DuplicateKey]
    repeated: dict[str, list[Any]]


class MergeError(Exception):
    """yaml.v2's ``map merge requires map or sequence of maps as the value``, at the ``<<`` entry."""

    def __init__(self, line: int, column: int) -> None:
        super().__init__(MERGE_NEEDS_MAPS)
        self.line, self.column = line, column


def _merged_maps(merge: Merge) -> list[Any]:
    """The mappings a ``<<`` brings, in the order yaml.v2 decodes them (a list from its end)."""
    value = merge.value
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list) and not merge.alias and all(isinstance(v, dict) for v in value):
        return list(reversed(value))
    raise MergeError(merge.line, merge.column)


def fill(pointer: Pointer, entries: list[Store | Merge], stores_of: dict[int, list[Store]],
         duplicates_of: dict[int, list[DuplicateKey]]) -> Filled:
    """Replay a mapping's ``entries``. ``stores_of``/``duplicates_of`` hold, by ``id``, what earlier
    finished mappings stored and what decoding each container reports."""
    flat: list[Store] = []
    merged_by: list[Merge | None] = []
    for entry in entries:
        if isinstance(entry, Store):
            flat.append(entry)
            merged_by.append(None)
            continue
        for sub in _merged_maps(entry):
            brought = stores_of.get(id(sub), [])
            flat.extend(brought)
            merged_by.extend([entry] * len(brought))
    first: dict[str, Store] = {}
    duplicates: list[DuplicateKey] = []
    repeated: dict[str, list[Any]] = {}
    for store, merge in zip(flat, merged_by, strict=True):
        if isinstance(store.value, (dict, list)):
            duplicates.extend(duplicates_of.get(id(store.value), ()))
        earlier = first.get(store.key)
        if earlier is None:
            first[store.key] = store
            continue
        line, column = (merge.line, merge.column) if merge else (store.key_line, store.key_column)
        duplicates.append(DuplicateKey(pointer, store.key, line, column, earlier.key_line, store.value_line,
                                       merge.line if merge else 0, earlier.value_line))
        repeated.setdefault(store.key, [earlier.value]).append(store.value)
    return Filled(flat, duplicates, repeated)
