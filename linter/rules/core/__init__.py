"""File-level rules the engine itself reports (reading, parsing, recognising documents)."""

from importlib import import_module
from types import ModuleType

# The registration list, in order (explicit: nothing is discovered).
_MODULES = (
    "bpl001_invalid_yaml",
    "bpl002_unreadable_file",
    "bpl003_empty_file",
    "bpl004_unrecognized_document",
    "bpl005_input_limit",
    "bpl006_ignored_documents",
    "bpl007_unknown_suppression",
    "bpl008_unused_suppression",
    "bpl009_internal_error",
)

RULES: tuple[ModuleType, ...] = tuple(import_module(f"{__name__}.{name}") for name in _MODULES)
