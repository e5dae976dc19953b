"""Admission decisions: pure functions of (request, cluster-view snapshot, settings, models) -> Decision.

No flask, no kubernetes here (an import-linter contract): the routes decode and encode,
the policies only decide.
"""
