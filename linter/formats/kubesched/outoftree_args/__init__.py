"""Typed args of the scheduler-plugins plugins (kubernetes-sigs/scheduler-plugins, see ``builds``).

``types`` describes the v1 Go types the scheduler decodes them into (strictly, exactly as the
in-tree args: scheduler-plugins registers them in kube-scheduler's own scheme), ``defaults``
applies that project's ``SetDefaults_*`` functions and the v1 -> internal conversion, and
``construct`` is what each plugin's ``New()`` checks when the framework builds it; ``internal``
writes the internal args the way validation errors print them.
"""
