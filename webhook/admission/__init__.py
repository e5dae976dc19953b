"""Admission: decode an AdmissionReview, decide, encode the answer (and build its JSON Patch).

Pure: no flask, kubernetes or gunicorn here, and nothing from the cluster or server wings (import contracts).
What a decision may read about the cluster is the protocol in ``ports``; the server wires in the real thing.
"""
