"""A predicates argument Volcano does not read, or a predicates switch value it ignores.

What it does:
    The predicates plugin reads nine switches with ``GetBool`` (``predicate.NodeAffinityEnable``,
    ``NodePortsEnable``, ``TaintTolerationEnable``, ``PodAffinityEnable``, ``NodeVolumeLimitsEnable``,
    ``VolumeZoneEnable``, ``PodTopologySpreadEnable``, ``VolumeBindingEnable``, all true by default, and
    ``predicate.CacheEnable``, false by default), ``volumebinding.weight``,
    ``volumebinding.bindTimeoutSeconds`` and ``dynamicresources.filterTimeoutSeconds``. This rule reports:

    * a switch whose value ``GetBool`` cannot take (``1``, a quoted ``"yes"``, a list, ``null``): Volcano logs
      ``Could not parse argument: ... to bool`` and keeps the default;
    * ``predicate.DynamicResourceAllocationEnable`` unless it is true: Volcano declares the key but never
      reads it, DRA follows the DynamicResourceAllocation feature gate (on by default, locked on from
      Kubernetes 1.35), so ``false`` does not turn DRA off (``true`` asks for what happens, and passes);
    * keys older releases read here and Volcano now reads elsewhere, when they ask for something on:
      ``predicate.GPUSharingEnable``, ``GPUNumberEnable``, ``VGPUEnable`` and ``NodeLockEnable`` (now
      ``deviceshare.*`` on the deviceshare plugin) and ``VGPU4pdEnable`` (renamed, now
      ``deviceshare.VGPUEnable``), none reported when a deviceshare entry turns the new switch on;
      ``predicate.ProportionalEnable`` and, with it, ``predicate.resources*`` (now resource-strategy-fit's
      ``proportional``);
    * ``volumebinding.shape``, read only with the StorageCapacityScoring feature gate on (off by default in
      Kubernetes 1.36);
    * any other key, with a "did you mean" among the keys the plugin reads (compared without the
      ``predicate.`` prefix and ``Enable`` suffix every switch shares).

Why it matters:
    Volcano ignores these without failing, so what the conf asks for does not happen: a conf with
    ``predicate.GPUSharingEnable: true`` schedules with no GPU sharing at all.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: predicates
        arguments:
          predicate.GPUSharingEnable: true

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: predicates
      - name: deviceshare
        arguments:
          deviceshare.GPUSharingEnable: true
"""

from linter.findings import Severity
from linter.formats.volcano import argchecks, codes

CODE = codes.PREDICATES_IGNORED_ARGUMENT
NAME = "volcano-predicates-ignored-argument"
SUMMARY = "predicates argument Volcano does not read, or a switch value it ignores"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = argchecks.predicates_ignored_argument
