"""Volcano rules: BPL060-069 loading (decode, unknown and duplicate keys), BPL400-449 semantics and binpack."""

from importlib import import_module
from types import ModuleType

# The registration list, in order (explicit: nothing is discovered).
_MODULES = (
    "bpl060_volcano_unmarshal_error",
    "bpl061_volcano_unknown_key",
    "bpl062_volcano_duplicate_key",
    "bpl400_volcano_unknown_action",
    "bpl401_volcano_drf_proportion_conflict",
    "bpl402_volcano_unknown_plugin",
    "bpl403_volcano_binpack_ignored_value",
    "bpl404_volcano_binpack_weight_zero",
    "bpl405_volcano_binpack_negative_weight",
    "bpl406_volcano_binpack_negative_resource_weight",
    "bpl407_volcano_binpack_overridden_weight",
    "bpl408_volcano_binpack_resources_not_string",
    "bpl409_volcano_binpack_unlisted_resource",
    "bpl410_volcano_binpack_unknown_argument",
    "bpl411_volcano_binpack_node_order_disabled",
    "bpl412_volcano_duplicate_plugin",
    "bpl413_volcano_nodeorder_unknown_argument",
    "bpl414_volcano_nodeorder_ignored_value",
    "bpl415_volcano_argument_exits",
    "bpl416_volcano_deviceshare_exits",
    "bpl417_volcano_predicates_ignored_argument",
    "bpl418_volcano_rescheduling_ignored_argument",
)

RULES: tuple[ModuleType, ...] = tuple(import_module(f"{__name__}.{name}") for name in _MODULES)
