"""Rules for the volcano format (explicit registration tuple)."""

from types import ModuleType

RULES: tuple[ModuleType, ...] = ()
