"""A real HTTP receiver on 127.0.0.1 for the webhook tests: it keeps every request it gets
(path, headers, body) and answers as the test sets it: a status, a redirect, or nothing for
a while (a hanging receiver)."""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Got:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    got: list[Got] = field(default_factory=list)
    status: int = 200
    location: str = ""  # answered with the status when set (a redirect)
    hang: float = 0.0  # seconds to wait before answering


@contextmanager
def receiver(certificate: tuple[str, str] | None = None) -> Iterator[Receiver]:
    """The receiver, served over TLS with ``certificate`` (its certificate and key files)
    at ``https://localhost``, when one is given."""
    state: Receiver

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length", "0"))
            state.got.append(Got(self.path, dict(self.headers.items()), self.rfile.read(length)))
            if state.hang:
                time.sleep(state.hang)
            self.send_response(state.status)
            if state.location:
                self.send_header("Location", state.location)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    state = Receiver(f"http://127.0.0.1:{port}/hook")
    if certificate is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*certificate)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        state = Receiver(f"https://localhost:{port}/hook")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
