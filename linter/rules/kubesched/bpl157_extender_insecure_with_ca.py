"""An extender's tlsConfig that sets insecure together with a CA.

What it does:
    kube-scheduler makes each extender's HTTP client (in `extenders` order) after validation and
    before any profile is built. client-go refuses `tlsConfig.insecure: true` together with
    `caFile` or `caData`, and the scheduler stops with
    `couldn't build extenders: specifying a root certificates file with the insecure flag is not allowed`.
    (`enableHTTPS: true` without a CA only turns insecure on; with a CA it leaves it off.)
    The message then says which extender's tlsConfig to change; the detail is the scheduler's text alone.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    extenders:
    - urlPrefix: 'https://gpu-extender:8888'
      filterVerb: filter
      enableHTTPS: true
      tlsConfig: {insecure: true, caFile: /etc/extender/ca.crt}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    extenders:
    - urlPrefix: 'https://gpu-extender:8888'
      filterVerb: filter
      enableHTTPS: true
      tlsConfig: {caFile: /etc/extender/ca.crt}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.EXTENDER_TRANSPORT
NAME = "extender-insecure-with-ca"
SUMMARY = "extender tlsConfig sets insecure together with caFile or caData"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
