"""A plugin argument Volcano cannot decode, or refuses, when a session opens: the scheduler exits.

What it does:
    Decodes, as Volcano does with ``mapstructure.Decode`` (``framework.Get``), the arguments its plugins
    read that way: ``extender.managedResources`` (a list of strings), resource-strategy-fit's
    ``resourceStrategyFitWeight`` (an integer), ``resources`` (a mapping of resource names to ``type`` and
    ``weight``), ``sra`` and ``proportional`` (mappings), and the predicates plugin's
    ``volumebinding.weight``, ``volumebinding.bindTimeoutSeconds`` and
    ``dynamicresources.filterTimeoutSeconds`` (integers). A value of the wrong shape fails: a quoted
    ``"10"``, a boolean, a list or a mapping where a number belongs; a comma-separated string where a list
    belongs; a string where a mapping belongs. It also reports a negative ``volumebinding.bindTimeoutSeconds``
    (``volumebinding.New`` refuses it) and a ``dynamicresources.filterTimeoutSeconds`` so large that Go's
    ``time.Duration`` wraps negative. The finding's detail is Volcano's own ``klog.Fatal`` text (mapstructure's
    multi-line error included).

    It also reports the arguments two plugins take as strings without checking, where any other value
    (a number, a boolean, ``null``) makes Go panic (``interface conversion: interface {} is int, not
    string``) and nothing recovers: tdm's ``tdm.evict.period`` and every key containing
    ``tdm.revocable-zone.``, and rescheduling's ``interval`` and ``metricsPeriod`` (in the first
    rescheduling entry of each tier, the one Volcano parses). Likewise the values of the lowNodeUtilization
    strategy's ``thresholds`` and ``targetThresholds`` (in ``strategies[].params``), which rescheduling
    asserts to be ints (``v.(int)``): a float such as ``20.5``, a quoted ``"20"`` or ``null`` panics when the
    shuffle action runs the strategy, in the first session. Reported only when ``actions`` lists ``shuffle``
    and a rescheduling entry keeps ``enabledVictim`` on; a ``thresholds`` that is not a mapping stops the
    parse, so nothing after it is read.

    A float is truncated (``2.9`` is 2), ``null`` becomes 0, and a mapping's keys that match no field are
    ignored: none of these stops Volcano, so none is reported. Volume binding is set up once per process,
    with the first predicates entry that has ``predicate.VolumeBindingEnable`` on, so only that entry's
    ``volumebinding.*`` values are checked; ``volumebinding.shape`` is read only with the
    StorageCapacityScoring feature gate on (off by default in Kubernetes 1.36) and is not checked here
    (BPL417 reports it). ``dynamicresources.filterTimeoutSeconds`` is read by every predicates entry while
    the DynamicResourceAllocation gate is on: the default from Kubernetes 1.34, which is the version the
    gate's default follows (Volcano aligns its gates with the cluster's version).

Why it matters:
    Volcano calls ``klog.Fatal`` (or panics) while it opens a session, which ends the process. The file loads without
    a word, then every restart exits again at its first session: the scheduler crash-loops and no pod is
    scheduled.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: extender
        arguments:
          extender.urlPrefix: http://127.0.0.1:8713
          extender.managedResources: nvidia.com/gpu,nvidia.com/gpumem

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: extender
        arguments:
          extender.urlPrefix: http://127.0.0.1:8713
          extender.managedResources:
          - nvidia.com/gpu
          - nvidia.com/gpumem
"""

from linter.findings import Severity
from linter.formats.volcano import argchecks, codes

CODE = codes.ARGUMENT_EXITS
NAME = "volcano-argument-exits"
SUMMARY = "plugin argument Volcano cannot decode or refuses: it exits when a session opens"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})

check = argchecks.argument_exits
