"""An extender's tlsConfig caData or certData that holds no PEM block.

What it does:
    kube-scheduler makes each extender's HTTP client (in `extenders` order) after validation and
    before any profile is built. client-go reads `tlsConfig.caData` and, when `keyData` is set too,
    `certData` as PEM. Data with no PEM block in it (say the base64 of a file path, or of a DER
    certificate) stops the scheduler with
    `couldn't build extenders: unable to load root certificates: unable to parse bytes as PEM block`
    (caData) or `couldn't build extenders: tls: failed to find any PEM data in certificate input`
    (certData). The fields are `[]byte`: a YAML or JSON string holds the base64 of the PEM text
    (wrapped over lines or not: Go skips newlines); a string that is not base64 is BPL016.
    Data that holds a PEM block is not checked further, and an extender whose CA, certificate or key
    comes from a file (`caFile`, `certFile`, `keyFile` with no data) ends the check: the file decides.
    The message then names the field and what to write; the detail is the scheduler's text alone.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    extenders:
    - urlPrefix: 'https://gpu-extender:8888'
      filterVerb: filter
      enableHTTPS: true
      tlsConfig: {caData: L2V0Yy9leHRlbmRlci9jYS5jcnQ=}

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

CODE = codes.EXTENDER_TLS_DATA
NAME = "extender-tls-data-not-pem"
SUMMARY = "extender tlsConfig caData or certData holds no PEM block"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
