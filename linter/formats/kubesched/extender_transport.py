"""``NewHTTPExtender``'s transport: what client-go's ``TLSConfigFor`` refuses in an extender's ``tlsConfig``.

``buildExtenders`` makes each extender's HTTP client in ``extenders`` order and stops at the first error,
before any ignoredByScheduler resource is applied or any profile is built. In client-go's order:

* ``insecure: true`` together with a CA (``caFile`` or ``caData``) is refused before any file is read
  (``enableHTTPS`` turns insecure on only when there is no CA, so it cannot cause this);
* then ``caFile``/``certFile``/``keyFile`` are read when their ``...Data`` is empty: what is in such a
  file is unknown here, so nothing more is said about that extender or any after it;
* a ``caData`` with no PEM block in it: ``unable to load root certificates: unable to parse bytes as
  PEM block``;
* a ``certData`` with no PEM block in it, when ``keyData`` is set too: ``tls: failed to find any PEM data
  in certificate input``.

Data that holds a PEM block is not judged (that would take parsing the certificates).
"""

from __future__ import annotations

from typing import Any

from linter.formats.kubesched import codes as c
from linter.formats.kubesched.issues import Issue
from linter.gozero import as_list, as_map
from linter.source import Pointer

PREFIX = "couldn't build extenders: "
INSECURE_WITH_CA = PREFIX + "specifying a root certificates file with the insecure flag is not allowed"
CA_NOT_PEM = PREFIX + "unable to load root certificates: unable to parse bytes as PEM block"
CERT_NOT_PEM = PREFIX + "tls: failed to find any PEM data in certificate input"
_PEM_BEGIN = b"-----BEGIN"  # without it encoding/pem finds no block at all


def transport_issue(decoded: dict[str, Any]) -> Issue | None:
    """The first extender whose HTTP client cannot be made, as far as it is known without reading files."""
    for i, extender in enumerate(as_list(decoded.get("extenders"))):
        tls = as_map(as_map(extender).get("tlsConfig"))
        base: Pointer = ("extenders", i, "tlsConfig")
        ca, cert, key = (_data(tls.get(k)) for k in ("caData", "certData", "keyData"))
        if tls.get("insecure") is True and (ca or tls.get("caFile")):
            hint = f" (extenders[{i}].tlsConfig: drop `insecure: true` to verify with the CA, or drop the CA)"
            return Issue(c.EXTENDER_TRANSPORT, "init", INSECURE_WITH_CA, (*base, "insecure"), hint=hint)
        if (tls.get("caFile") and not ca) or (tls.get("certFile") and not cert) or (tls.get("keyFile") and not key):
            return None  # client-go reads the file now: its content decides
        if ca and _PEM_BEGIN not in ca:
            return Issue(c.EXTENDER_TLS_DATA, "init", CA_NOT_PEM, (*base, "caData"), hint=_not_pem_hint(i, "ca"))
        if cert and key and _PEM_BEGIN not in cert:
            return Issue(c.EXTENDER_TLS_DATA, "init", CERT_NOT_PEM, (*base, "certData"), hint=_not_pem_hint(i, "cert"))
    return None


def _not_pem_hint(index: int, what: str) -> str:
    return f" (extenders[{index}].tlsConfig.{what}Data: write the base64 of a PEM certificate, or use {what}File)"


def _data(value: Any) -> bytes:
    """A decoded ``[]byte`` field (the decoder gives bytes, or a list for a JSON array of numbers)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, list) and all(isinstance(b, int) and 0 <= b < 256 for b in value):
        return bytes(value)
    return b""
