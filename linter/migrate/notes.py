"""What a migration says about itself: one :class:`Note` per change, loss or problem.

``ERROR`` notes mean the output cannot do what the original did (a plugin with no successor,
a setting v1 cannot express exactly, a Policy that 1.22 itself refused): ``migrate`` then
exits 1. ``CHANGE`` notes describe a rewrite that keeps the behaviour; they also become the
comment block at the top of the migrated YAML. ``UNCHANGED`` notes say a config was already v1
and left as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ERROR = "error"
CHANGE = "change"
UNCHANGED = "unchanged"


class MigrateError(Exception):
    """The input cannot be migrated at all (not YAML, nothing to migrate, ...): one line, exit 2."""


@dataclass(frozen=True)
class Note:
    level: str  # ERROR, CHANGE or UNCHANGED
    where: str  # a readable path such as "profiles[0].pluginConfig[2]", or "" for the whole file
    message: str

    def render(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


@dataclass
class Notes:
    """Collects notes while a document is rewritten."""

    items: list[Note] = field(default_factory=list)

    def change(self, where: str, message: str) -> None:
        self.items.append(Note(CHANGE, where, message))

    def error(self, where: str, message: str) -> None:
        self.items.append(Note(ERROR, where, message))

    def extend(self, notes: list[Note]) -> None:
        self.items.extend(notes)
