"""The plugin arguments Volcano reads when a session opens that can stop it, and the ``predicates`` keys.

At ed72c7c every listed plugin entry is built (its ``New`` with the entry's ``arguments``) and opened at
every session (``framework.OpenSession``). ``framework.Get[T]`` decodes an argument with
``mapstructure.Decode`` (:mod:`linter.formats.volcano.mapstructure`) and calls ``klog.Fatalf("Could not
parse argument for key %s to type %T: %v")`` when that fails; the callers:

* extender ``New``: ``extender.managedResources`` as ``[]string``.
* resource-strategy-fit ``New``: ``resourceStrategyFitWeight`` (int), ``resources``
  (``map[v1.ResourceName]ResourcesType``), ``sra`` (``sraConfig``), ``proportional``
  (``proportionalConfig``), in that order.
* predicates ``InitPlugin`` (from ``OnSessionOpen``): the volume binding set-up runs once per process
  (``volumeBindingPluginOnce``), in the first session, for the first ``predicates`` entry whose
  ``predicate.VolumeBindingEnable`` is on: ``volumebinding.weight`` (int), then
  ``volumebinding.bindTimeoutSeconds`` (int64); ``volumebinding.New`` then refuses a negative timeout and
  Volcano exits with ``failed to create volume binding plugin with args %+v: %v``. ``volumebinding.shape``
  is read only with the StorageCapacityScoring feature gate on, off by default in Kubernetes 1.36. The DRA
  set-up runs for every entry at every session while the DynamicResourceAllocation gate is on (Volcano
  aligns gate defaults with the cluster's version: on from 1.34, locked on from 1.35):
  ``dynamicresources.filterTimeoutSeconds`` (int); a value >= 0 becomes
  ``time.Duration(secs) * time.Second``, which can wrap negative, and ``dynamicresources.New`` refuses a
  negative timeout (``failed to create dra plugin with err: %v``).

Two plugins assert an argument is a string without checking (``v.(string)``), a runtime panic that nothing
recovers (``wait.Until``'s ``HandleCrash`` re-panics): tdm's ``New`` for every key containing
``tdm.revocable-zone.`` and for ``tdm.evict.period``; rescheduling's ``OnSessionOpen`` for ``interval`` and
``metricsPeriod`` of the first rescheduling entry of each tier.

``Arguments.GetBool`` (the predicates and deviceshare switches) takes a YAML bool or a string
``strconv.ParseBool`` accepts; for anything else it logs ``Could not parse argument: %v for key %s to
bool`` and leaves the value as it was.
"""

from __future__ import annotations

from collections.abc import Mapping

from linter.formats.volcano.mapstructure import BOOL, FLOAT64, INT, INT64, STRING, GoType, map_of, slice_of

EXTENDER = "extender"
RESOURCE_STRATEGY_FIT = "resource-strategy-fit"
PREDICATES = "predicates"
DEVICESHARE = "deviceshare"

_RESOURCES_TYPE = GoType("struct", "resourcestrategyfit.ResourcesType", fields=(
    ("Type", GoType("string", "config.ScoringStrategyType")), ("Weight", INT)))
_SRA = GoType("struct", "resourcestrategyfit.sraConfig", fields=(
    ("Enable", BOOL), ("Resources", STRING), ("Weight", INT), ("ResourceWeight", map_of("string", INT))))
_PROPORTIONAL = GoType("struct", "resourcestrategyfit.proportionalConfig", fields=(
    ("Enable", BOOL), ("Resources", STRING), ("ResourceProportion", map_of("string", FLOAT64))))

# plugin -> the keys its New passes to framework.Get, in the order it reads them, with the type asked for
SESSION_GETS: Mapping[str, tuple[tuple[str, GoType], ...]] = {
    EXTENDER: (("extender.managedResources", slice_of(STRING)),),
    RESOURCE_STRATEGY_FIT: (
        ("resourceStrategyFitWeight", INT),
        ("resources", map_of("v1.ResourceName", _RESOURCES_TYPE)),
        ("sra", _SRA),
        ("proportional", _PROPORTIONAL),
    ),
}

TDM = "tdm"
TDM_ZONE = "tdm.revocable-zone."  # matched anywhere in the key (strings.Contains)
TDM_EVICT_PERIOD = "tdm.evict.period"
RESCHEDULING = "rescheduling"
RESCHEDULING_STRINGS = ("interval", "metricsPeriod")

VOLUME_BINDING_WEIGHT = "volumebinding.weight"
VOLUME_BINDING_TIMEOUT = "volumebinding.bindTimeoutSeconds"
VOLUME_BINDING_SHAPE = "volumebinding.shape"
VOLUME_BINDING_GETS = ((VOLUME_BINDING_WEIGHT, INT), (VOLUME_BINDING_TIMEOUT, INT64))
VOLUME_BINDING_DEFAULT_WEIGHT = 1
DRA_FILTER_TIMEOUT = "dynamicresources.filterTimeoutSeconds"
DRA_FILTER_TIMEOUT_DEFAULT = "10s"

VOLUME_BINDING_ENABLE = "predicate.VolumeBindingEnable"
# predicates.New: the switches it reads with GetBool and their defaults
PREDICATE_SWITCHES: Mapping[str, bool] = {
    "predicate.NodeAffinityEnable": True, "predicate.NodePortsEnable": True,
    "predicate.TaintTolerationEnable": True, "predicate.PodAffinityEnable": True,
    "predicate.NodeVolumeLimitsEnable": True, "predicate.VolumeZoneEnable": True,
    "predicate.PodTopologySpreadEnable": True, VOLUME_BINDING_ENABLE: True, "predicate.CacheEnable": False,
}
PREDICATE_ARGUMENTS = (*PREDICATE_SWITCHES, VOLUME_BINDING_WEIGHT, VOLUME_BINDING_TIMEOUT, VOLUME_BINDING_SHAPE,
                       DRA_FILTER_TIMEOUT)
# declared in predicates.go but read nowhere: DRA follows the DynamicResourceAllocation feature gate
DRA_ENABLE = "predicate.DynamicResourceAllocationEnable"
# keys older Volcano releases read in predicates (until 974fe16a6 and 7893537ed), and where they live now
MOVED_KEYS: Mapping[str, str] = {
    "predicate.GPUSharingEnable": "deviceshare.GPUSharingEnable on the deviceshare plugin",
    "predicate.GPUNumberEnable": "deviceshare.GPUNumberEnable on the deviceshare plugin",
    "predicate.VGPUEnable": "deviceshare.VGPUEnable on the deviceshare plugin",
    "predicate.NodeLockEnable": "deviceshare.NodeLockEnable on the deviceshare plugin",
    # read from a3fcad06a until the switch was renamed predicate.VGPUEnable
    "predicate.VGPU4pdEnable": "deviceshare.VGPUEnable on the deviceshare plugin",
    "predicate.ProportionalEnable": "proportional.enable on the resource-strategy-fit plugin",
}
# the deviceshare switch each old GPU key became (a deviceshare entry that turns it on does what was asked)
MOVED_SWITCHES: Mapping[str, str] = {
    "predicate.GPUSharingEnable": "deviceshare.GPUSharingEnable",
    "predicate.GPUNumberEnable": "deviceshare.GPUNumberEnable",
    "predicate.VGPUEnable": "deviceshare.VGPUEnable", "predicate.NodeLockEnable": "deviceshare.NodeLockEnable",
    "predicate.VGPU4pdEnable": "deviceshare.VGPUEnable",
}
MOVED_RESOURCES = "predicate.resources"  # and predicate.resources.<name>.cpu/memory: proportional's keys now

# deviceshare's enablePredicate: package-level switches, set by every entry's New, read by the checks
GPU_SHARING = "deviceshare.GPUSharingEnable"
GPU_NUMBER = "deviceshare.GPUNumberEnable"
VGPU = "deviceshare.VGPUEnable"
SHARING_AND_NUMBER = "can not define true in both gpu sharing and gpu number"
SHARE_AND_VGPU = "gpu-share and vgpu can't be used together"

_GO_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})  # strconv.ParseBool
_GO_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})


def bool_argument(value: object) -> bool | None:
    """What ``Arguments.GetBool`` stores for a present key, or None when it ignores the value."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        if value in _GO_TRUE:
            return True
        if value in _GO_FALSE:
            return False
    return None
