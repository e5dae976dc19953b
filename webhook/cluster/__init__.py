"""The cluster: what the webhook mirrors from the apiserver and the one Lease it writes.

``kubeclient`` is the only module of the webhook that imports ``kubernetes`` (an import contract);
``cache`` runs one ``reflector`` per kind into the ``stores``; ``lease`` is the globalDefault claim;
``static`` is the in-memory view for tests and benchmarks.
"""
