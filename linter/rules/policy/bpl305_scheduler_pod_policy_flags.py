"""A kube-scheduler static Pod still passes the removed ``--policy-config-file``/``--policy-configmap`` flags.

What it does:
    Recognises a Pod whose container runs ``kube-scheduler`` (the static Pod manifest in
    ``/etc/kubernetes/manifests``) and reports each ``--policy-config-file``,
    ``--policy-configmap`` and ``--policy-configmap-namespace`` flag.

Why it matters:
    These flags went away with the legacy Policy API in Kubernetes 1.23; a 1.23+ scheduler
    exits at start-up with ``unknown flag``, so the control plane loses its scheduler. Guides
    written for 1.14-1.22 (bin packing with ``RequestedToCapacityRatioPriority``) still show this
    manifest. ``binpack-lint migrate`` turns the Policy file into a KubeSchedulerConfiguration;
    pass that with ``--config`` instead.

Example (fails):
    apiVersion: v1
    kind: Pod
    metadata:
      name: kube-scheduler
      namespace: kube-system
    spec:
      containers:
      - name: kube-scheduler
        image: registry.k8s.io/kube-scheduler:v1.36.2
        command:
        - kube-scheduler
        - --kubeconfig=/etc/kubernetes/scheduler.conf
        - --policy-config-file=/etc/kubernetes/scheduler-policy.json

Use instead (passes):
    apiVersion: v1
    kind: Pod
    metadata:
      name: kube-scheduler
      namespace: kube-system
    spec:
      containers:
      - name: kube-scheduler
        image: registry.k8s.io/kube-scheduler:v1.36.2
        command:
        - kube-scheduler
        - --kubeconfig=/etc/kubernetes/scheduler.conf
        - --config=/etc/kubernetes/scheduler-config.yaml
"""

from linter.findings import Severity
from linter.formats.policy import codes, schedpod

CODE = codes.SCHEDULER_POD_POLICY_FLAGS
NAME = "scheduler-pod-policy-flags"
SUMMARY = "kube-scheduler static Pod passes the removed Policy flags"
SEVERITY = Severity.ERROR
FORMATS = frozenset({schedpod.KIND})

check = schedpod.policy_flags
