"""The PriorityClass wing: scheduling.k8s.io PriorityClasses, validated as kube-apiserver 1.36 does.

``validate`` holds the API server's defaulting, validation and messages (the webhook uses them
too), ``handler`` detects the format and builds the context the rules read, ``codes`` holds the
wing's rule codes.
"""
