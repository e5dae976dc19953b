"""The webhook's fast cluster state: every node scored at once with numpy, exactly as the scalar model scores one.

The only numpy importer of the project (an import contract), so the linter, its CLI and ``explain`` install and
start without it (numpy is in the ``webhook`` extra). ``state.ClusterState`` is the entry point; ``store`` holds
the per-node arrays, ``requests`` a pod's request vector, ``filters`` and ``scores`` the vectorised plugins,
``rank`` puts them together.
"""
