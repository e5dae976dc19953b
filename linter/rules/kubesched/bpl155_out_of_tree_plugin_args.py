"""Out-of-tree plugin that fails when the scheduler builds it (args missing or invalid).

What it does:
    For a custom build (`--scheduler scheduler-plugins`), reports what a scheduler-plugins
    plugin's `New()` rejects when the framework builds the profile, in the binary's own words:
    `initializing profiles: creating profile for scheduler name <name>: initializing plugin
    "<plugin>": <error>`. Either the plugin needs args and the profile has no pluginConfig entry
    for it (kube-scheduler defaults args only for its in-tree kinds, so the plugin gets none:
    `want args to be of type CoschedulingArgs, got <nil>`; an entry with just `name:` is
    enough, its args are then defaulted), or the args fail the plugin's own validation
    (Coscheduling, NodeResourcesAllocatable, NodeResourceTopologyMatch, PreemptionToleration,
    NodeMetadata) or its constructor's checks (the trimaran plugins' metric provider type,
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
SUMMARY = "out-of-tree plugin that fails when the scheduler builds it (args missing or invalid)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
