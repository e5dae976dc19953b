"""Idle and slow clients for the connection-attack tests and benchmark (loopback only, closed by ``close()``).

Each kind holds a connection open in a different phase, the phases a server might park a thread on:

* ``idle``: a TCP connection that never sends a byte;
* ``half-handshake``: the first half of a real TLS ClientHello, then nothing;
* ``slow-headers``: a finished TLS handshake and half a request header (slowloris);
* ``huge-chunk``: a finished handshake, a whole header announcing a chunked body, and a chunk that
  claims ``ffffffffffffffff`` bytes, of which a few are sent.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
from collections.abc import Iterable

KINDS = ("idle", "half-handshake", "slow-headers", "huge-chunk")


def client_hello(context: ssl.SSLContext) -> bytes:
    """The bytes of a real ClientHello that ``context`` would send."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    with contextlib.suppress(ssl.SSLWantReadError):
        tls.do_handshake()
    return outgoing.read()


class HeldConnections:
    """``count`` connections of one kind, opened now and held until ``close()``."""

    def __init__(self, address: tuple[str, int], kind: str, count: int, context: ssl.SSLContext | None) -> None:
        self.sockets: list[socket.socket] = []
        hello = client_hello(context) if context is not None else b""
        for _ in range(count):
            raw = socket.create_connection(address, timeout=10)
            self.sockets.append(raw)
            if kind == "idle":
                continue
            if kind == "half-handshake":
                raw.sendall(hello[: len(hello) // 2])
                continue
            tls = context.wrap_socket(raw, server_hostname="localhost") if context is not None else raw
            self.sockets[-1] = tls
            if kind == "slow-headers":
                tls.sendall(b"POST /mutate/pods HTTP/1.1\r\nHost: localhost\r\nContent-Ty")
            elif kind == "huge-chunk":
                tls.sendall(b"POST /validate/configmaps HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                            b"\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{\"apiVersion\":")
            else:
                raise ValueError(f"unknown kind {kind!r}")

    def open_count(self) -> int:
        """How many of the held connections the server has not closed (a peek that does not block)."""
        alive = 0
        for sock in self.sockets:
            try:
                sock.setblocking(False)
                data = socket.socket.recv(sock, 1, socket.MSG_PEEK) if not isinstance(sock, ssl.SSLSocket) \
                    else sock.recv(1)
                alive += 0 if data == b"" else 1
            except (BlockingIOError, ssl.SSLWantReadError):
                alive += 1
            except OSError:
                pass
        return alive

    def close(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.close()
        self.sockets.clear()


def hold_all(address: tuple[str, int], counts: Iterable[tuple[str, int]],
             context: ssl.SSLContext | None) -> list[HeldConnections]:
    return [HeldConnections(address, kind, count, context) for kind, count in counts]
