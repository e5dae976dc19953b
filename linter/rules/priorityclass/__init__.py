"""PriorityClass rules: BPL070-079 schema, BPL500-549 API-server validation and cross-file checks."""

from importlib import import_module
from types import ModuleType

# The registration list, in order (explicit: nothing is discovered).
_MODULES = (
    "bpl070_priorityclass_schema",
    "bpl071_priorityclass_unknown_field",
    "bpl072_priorityclass_duplicate_key",
    "bpl500_priorityclass_invalid",
    "bpl501_multiple_global_defaults",
    "bpl502_priorityclass_missing_value",
    "bpl503_conflicting_priorityclass_definitions",
)

RULES: tuple[ModuleType, ...] = tuple(import_module(f"{__name__}.{name}") for name in _MODULES)
