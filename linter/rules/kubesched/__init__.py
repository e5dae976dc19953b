"""Rules for the kubesched format (explicit registration tuple)."""

from types import ModuleType

RULES: tuple[ModuleType, ...] = ()
