"""File-level rules the engine itself reports (reading, parsing, recognising documents)."""

from types import ModuleType

from linter.rules.core import (
    bpl001_invalid_yaml,
    bpl002_unreadable_file,
    bpl003_empty_file,
    bpl004_unrecognized_document,
    bpl005_input_limit,
    bpl009_internal_error,
)

RULES: tuple[ModuleType, ...] = (
    bpl001_invalid_yaml,
    bpl002_unreadable_file,
    bpl003_empty_file,
    bpl004_unrecognized_document,
    bpl005_input_limit,
    bpl009_internal_error,
)
