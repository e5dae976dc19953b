"""Rules for the priorityclass format (explicit registration tuple)."""

from types import ModuleType

RULES: tuple[ModuleType, ...] = ()
