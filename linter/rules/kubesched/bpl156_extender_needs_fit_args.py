"""An extender's ignoredByScheduler resource with a profile that has no NodeResourcesFit args.

What it does:
    When any extender lists a managed resource with `ignoredByScheduler: true`, kube-scheduler
    writes those resource names into NodeResourcesFit's `ignoredResources` in every profile,
    replacing the list the profile gives (binpack-lint's effective model shows the replaced
    list). A profile that has NodeResourcesFit disabled and no `pluginConfig` entry for it has
    no args to write into, and the scheduler stops with
    `couldn't build extenders: can't find NodeResourcesFitArgs in plugin config`.
    This runs after validation and before any profile's plugins are built. The fix is a
    `pluginConfig` entry for NodeResourcesFit; with the plugin disabled its args are not used, so
    `args: {}` is enough (BPL205 does not report that entry). The message names the profile and that
    fix; the detail is the scheduler's text alone.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    extenders:
    - urlPrefix: 'http://gpu-extender:8888'
      filterVerb: filter
      managedResources:
      - {name: example.com/gpu, ignoredByScheduler: true}
    profiles:
    - plugins:
        multiPoint:
          disabled: [{name: NodeResourcesFit}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    extenders:
    - urlPrefix: 'http://gpu-extender:8888'
      filterVerb: filter
      managedResources:
      - {name: example.com/gpu, ignoredByScheduler: true}
    profiles:
    - plugins:
        multiPoint:
          disabled: [{name: NodeResourcesFit}]
      pluginConfig:
      - name: NodeResourcesFit
        args: {}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.EXTENDER_FIT_ARGS
NAME = "extender-needs-fit-args"
SUMMARY = "extender ignoredByScheduler resource while a profile has no NodeResourcesFit args"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
