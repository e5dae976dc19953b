"""The HTTP server: the Flask app (``app``, ``routes``), its gunicorn wiring (``wsgi``, ``gunicorn_conf``,
``worker``), TLS reload (``tls``), Prometheus metrics (``metrics``) and JSON logs (``jsonlog``).
"""
