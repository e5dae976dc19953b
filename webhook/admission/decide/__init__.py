"""The decisions: pure functions of (request, cluster view, settings, scheduler models) -> ``Decision``.

One module per admitted kind (``pods``, ``priorityclasses``, ``configmaps``); ``priority`` and ``k8serrors``
hold what the pod and PriorityClass decisions share. The server's routes decode and encode; these only decide.
"""
