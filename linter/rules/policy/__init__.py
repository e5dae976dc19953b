"""Rules for the policy format (explicit registration tuple)."""

from types import ModuleType

RULES: tuple[ModuleType, ...] = ()
