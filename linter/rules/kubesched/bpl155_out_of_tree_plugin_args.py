"""Out-of-tree plugin that fails when the scheduler builds it (invalid args).

What it does:
    For a custom build (`--scheduler scheduler-plugins`), reports what a scheduler-plugins
    plugin's `New()` rejects when the framework builds the profile, in the binary's own words:
    `initializing profiles: creating profile for scheduler name <name>: initializing plugin
    "<plugin>": <error>`. The args are the defaulted ones (a plugin with no pluginConfig entry
    gets all defaults, as in-tree plugins do), checked by the plugin's own validation
    (Coscheduling, NodeResourcesAllocatable, NodeResourceTopologyMatch, PreemptionToleration,
    NodeMetadata, whose key, source, type and strategy have no defaults) or by its constructor
    (the trimaran plugins' and Peaks' metric provider type without a watcher address,
    TargetLoadPacking's defaultRequestsMultiplier). Strict-decoding errors in these args are
    BPL014-BPL017, as for in-tree args.

Why it matters:
    The scheduler exits at start-up with this error.

Example (fails):
    # binpack-lint --scheduler scheduler-plugins
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        postFilter:
          enabled: [{name: PreemptionToleration}]
          disabled: [{name: DefaultPreemption}]
      pluginConfig:
      - name: PreemptionToleration
        args: {minCandidateNodesPercentage: 120}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        postFilter:
          enabled: [{name: PreemptionToleration}]
          disabled: [{name: DefaultPreemption}]
      pluginConfig:
      - name: PreemptionToleration
        args: {minCandidateNodesPercentage: 20}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.OUT_OF_TREE_ARGS
NAME = "out-of-tree-plugin-args"
SUMMARY = "out-of-tree plugin that fails when the scheduler builds it (invalid args)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
