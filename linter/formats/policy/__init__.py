"""The legacy Policy wing: ``kind: Policy`` files of kube-scheduler up to 1.22.

``handler`` detects the format and decodes it, ``validate`` runs the 1.22 scheduler's checks,
``migrate`` prints the v1 KubeSchedulerConfiguration equivalent, ``codes`` holds the wing's
rule codes.
"""
