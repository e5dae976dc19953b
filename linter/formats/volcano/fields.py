"""The keys Volcano's conf types know (``conf.SchedulerConfiguration`` and what it holds, at ed72c7c)."""

from __future__ import annotations

KNOWN_ACTIONS = ("enqueue", "allocate", "backfill", "preempt", "reclaim", "shuffle", "gangpreempt", "gangreclaim")
KNOWN_PLUGINS = (
    "priority", "gang", "conformance", "drf", "proportion", "capacity", "predicates", "nodeorder", "binpack",
    "deviceshare", "resource-strategy-fit", "tdm", "overcommit", "sla", "task-topology", "numa-aware", "cdp",
    "rescheduling", "usage", "pdb", "nodegroup", "network-topology-aware", "extender", "resourcequota",
)
# conf.PluginOption's *bool fields (note the mixed "enable"/"enabled" spelling, as in Volcano).
PLUGIN_SWITCHES = (
    "enableJobOrder", "enableHierarchy", "enableJobReady", "enableJobPipelined", "enableTaskOrder",
    "enablePreemptable", "enableReclaimable", "enablePreemptive", "enableQueueOrder", "enabledClusterOrder",
    "enablePredicate", "enableBestNode", "enableNodeOrder", "enableTargetJob", "enableReservedNodes",
    "enableJobEnqueued", "enabledVictim", "enableJobStarving", "enabledOverused", "enabledAllocatable",
    "enabledHyperNodeOrder", "enabledSubJobReady", "enabledSubJobPipelined", "enabledSubJobOrder",
    "enabledHyperNodeGradient",
)
PLUGIN_OPTION_KEYS = ("name", *PLUGIN_SWITCHES, "arguments")
TOP_LEVEL_KEYS = ("actions", "tiers", "configurations", "metrics")
