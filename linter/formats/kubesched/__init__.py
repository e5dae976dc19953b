"""The kube-scheduler wing: KubeSchedulerConfiguration files, modelled on kube-scheduler 1.36.

``handler`` (detection, the format context) runs ``analysis`` once per document: ``versions``
(type meta), ``stages`` with ``decode`` (strict decoding of the config and plugin args),
``validate`` and ``argsvalid`` (the scheduler's validation), ``framework`` (building the
profiles' plugins), ``lint`` (binpack-guard's own checks). Each problem is an ``issues.Issue``
tagged with a code from ``codes``; the rule modules in ``linter.rules.kubesched`` pick theirs
through ``report``.
"""
