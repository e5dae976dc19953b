"""Rules for KubeSchedulerConfiguration files (explicit registration tuple).

Every rule reads issues the format context computed once (``linter.formats.kubesched``).
"""

from importlib import import_module
from types import ModuleType

# The registration list, in order (explicit: nothing is discovered).
_MODULES = (
    "bpl010_missing_type_meta",
    "bpl011_removed_api_version",
    "bpl012_unknown_api_version",
    "bpl013_v1_migration",
    "bpl014_duplicate_key",
    "bpl015_unknown_field",
    "bpl016_wrong_type",
    "bpl017_plugin_args_kind",
    "bpl020_schema",
    "bpl100_invalid_global_field",
    "bpl101_invalid_leader_election",
    "bpl102_invalid_scheduler_name",
    "bpl103_queue_sort_mismatch",
    "bpl104_duplicate_plugin_config",
    "bpl105_removed_plugin",
    "bpl106_plugin_args_mismatch",
    "bpl107_balanced_allocation_args",
    "bpl108_invalid_plugin_args",
    "bpl109_invalid_extender",
    "bpl150_invalid_fit_args",
    "bpl151_unknown_plugin",
    "bpl152_plugin_extension_mismatch",
    "bpl153_profile_plugin_count",
    "bpl154_score_weight_overflow",
    "bpl155_out_of_tree_plugin_args",
    "bpl156_extender_needs_fit_args",
    "bpl157_extender_insecure_with_ca",
    "bpl158_extender_tls_data_not_pem",
    "bpl200_negative_weight",
    "bpl201_unused_plugin_config",
    "bpl202_resource_weight_zero",
    "bpl203_duplicate_resource",
    "bpl204_score_weight_defaulted",
    "bpl205_fit_args_unchecked",
    "bpl206_shape_spreads",
)

RULES: tuple[ModuleType, ...] = tuple(import_module(f"{__name__}.{name}") for name in _MODULES)
