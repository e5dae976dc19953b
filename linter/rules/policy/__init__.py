"""Legacy scheduler Policy rules: BPL050-059 decoding, BPL300-349 removal, 1.22 validation, migration."""

from importlib import import_module
from types import ModuleType

# The registration list, in order (explicit: nothing is discovered).
_MODULES = (
    "bpl050_legacy_policy_schema",
    "bpl051_legacy_policy_unknown_field",
    "bpl052_legacy_policy_duplicate_key",
    "bpl300_legacy_policy_removed",
    "bpl301_legacy_policy_invalid",
    "bpl302_legacy_policy_unknown_name",
    "bpl303_legacy_rtcr_migration",
    "bpl304_legacy_shape_spreads",
    "bpl305_scheduler_pod_policy_flags",
)

RULES: tuple[ModuleType, ...] = tuple(import_module(f"{__name__}.{name}") for name in _MODULES)
