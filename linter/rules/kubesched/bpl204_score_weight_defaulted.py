"""Score-plugin weight 0 or omitted where a default weight applied.

What it does:
    A score-plugin weight of 0 becomes 1; a plugin re-enabled under `plugins.score` without a weight
    gets 1, not its default multiPoint weight (TaintToleration 3, NodeAffinity 2, InterPodAffinity 2,
    PodTopologySpread 2, DynamicResources 2). So does a default plugin listed again under
    `plugins.multiPoint.enabled` without a weight: that entry takes the default one's place, weight
    included (or is the plugin's only entry, when the defaults are disabled). That is not reported when
    the default weight is 1, when `plugins.score.enabled` lists the plugin (its weight there wins; without
    one, that entry is reported) or when the plugin is disabled under `plugins.score`. A weight on a
    plugin that does not implement Score (PrioritySort, DefaultBinder, ...) is never read, so a 0 there
    is not reported: the configuration kube-scheduler writes out gives every such plugin weight 0.
    Neither is a 0 on a plugin the scheduler build does not have (BPL151 reports that plugin), nor a 0
    under `plugins.multiPoint.enabled` whose weight is not the one used: a `plugins.score.enabled`
    entry of the same plugin (its weight is read first) or the plugin disabled under `plugins.score`.
    The same goes for BPL200's negative weights.

Why it matters:
    The plugin's influence is not what the file suggests.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: NodeResourcesFit, weight: 0}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: NodeResourcesFit, weight: 1}]
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.SCORE_WEIGHT_DEFAULTED
NAME = "score-weight-defaulted"
SUMMARY = "score-plugin weight 0 or omitted where a default weight applied"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
