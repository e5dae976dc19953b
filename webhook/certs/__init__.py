"""Certificates for the webhook's HTTPS endpoint: ``plan`` decides, ``x509`` builds and reads certificates,
``local`` and ``kube`` store them (a directory; Secrets + caBundle), ``cli`` is ``binpack-webhook certs``.
"""
