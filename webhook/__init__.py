"""binpack-guard's admission webhook, in four wings: ``admission`` (pure decisions), ``cluster`` (what is
mirrored from the apiserver), ``server`` (Flask + gunicorn + TLS) and ``certs`` (its certificates)."""
