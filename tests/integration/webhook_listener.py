"""A real HTTP listener on 127.0.0.1 for the alert tests: it answers with the statuses it is
scripted with (then 200), and keeps every request it was sent."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    status: int


@dataclass
class Listener:
    url: str
    statuses: list[int]
    received: list[Received] = field(default_factory=list)
    delivered: threading.Event = field(default_factory=threading.Event)  # set on the first 2xx


@contextmanager
def webhook_listener(*statuses: int) -> Iterator[Listener]:
    listener: Listener

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            status = listener.statuses.pop(0) if listener.statuses else 200
            listener.received.append(Received(dict(self.headers.items()), body, status))
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            if 200 <= status < 300:
                listener.delivered.set()

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    listener = Listener(f"http://127.0.0.1:{server.server_address[1]}/hook", list(statuses))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield listener
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def dead_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (a port just freed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"
