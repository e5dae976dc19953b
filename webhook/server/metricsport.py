"""The plain-HTTP metrics listener: ``GET /metrics`` on its own port, served by gunicorn's master.

Why the master: it holds no cache and answers no admission request, so a scrape is answered while
every worker is busy scoring (or stuck), and one scrape sums all workers from the multiprocess
directory (:func:`webhook.server.metrics.render_shared`), as Gatekeeper and Kyverno keep metrics
off their admission port. Plain HTTP: the port carries no admission traffic and no secrets, and the
chart's NetworkPolicy decides who may reach it. A small threaded ``http.server`` in a daemon thread
suffices for a few scrapes a minute; it is started by ``gunicorn_conf.when_ready`` (after the
master has bound its sockets, before any worker is forked).
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from webhook.server.metrics import CONTENT_TYPE, render_shared


def start_metrics_server(bind: str, shared: str) -> ThreadingHTTPServer:
    """Listen on ``bind`` (HOST:PORT) and serve the summed metrics of ``shared`` in a daemon thread."""
    host, _, port = bind.rpartition(":")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.split("?", 1)[0] != "/metrics":
                self._send(404, b"not found: only /metrics is served here\n", "text/plain; charset=utf-8")
                return
            try:
                body = render_shared(shared)
            except Exception as exc:  # a torn file mid-write: say so, keep serving
                self._send(500, f"metrics unavailable: {type(exc).__name__}\n".encode(), "text/plain; charset=utf-8")
                return
            self._send(200, body, CONTENT_TYPE)

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass  # scrapes are not worth a log line each

    server = ThreadingHTTPServer((host.strip("[]"), int(port)), Handler)
    server.daemon_threads = True
    server.timeout = 10
    Handler.timeout = 10  # a client that sends nothing is dropped after 10 s
    threading.Thread(target=server.serve_forever, name="metrics-listener", daemon=True).start()
    return server
