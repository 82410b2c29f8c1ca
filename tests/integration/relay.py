"""A tiny TCP relay the test controls, between a client and the real service: it passes bytes
through, or drops the first connection once the service has begun to answer it (the request was
delivered and acted on, the answer lost), or answers as a broken proxy would (502), or never answers."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

BAD_GATEWAY = b"<html><body><h1>502 Bad Gateway</h1>upstream is restarting</body></html>"


class Relay:
    def __init__(self, upstream_port: int, mode: str = "pass") -> None:
        assert mode in ("pass", "drop-first-answer", "bad-gateway", "silent")
        self.upstream_port = upstream_port
        self.mode = mode
        self.connections = 0
        #: What the service had begun to answer on the connection that was dropped.
        self.dropped_answer = b""
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._held: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        for held in self._held:
            held.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            number = self.connections
            threading.Thread(target=self._serve, args=(conn, number), daemon=True).start()

    def _serve(self, conn: socket.socket, number: int) -> None:
        if self.mode == "silent":
            self._held.append(conn)  # never answers; closed with the relay
            return
        if self.mode == "bad-gateway":
            _read_request(conn)
            conn.sendall(
                b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nConnection: close\r\n"
                + f"Content-Length: {len(BAD_GATEWAY)}\r\n\r\n".encode() + BAD_GATEWAY
            )
            conn.close()
            return
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        if self.mode == "drop-first-answer" and number == 1:
            upstream.sendall(_read_request(conn))
            self.dropped_answer = upstream.recv(65536)  # the service has acted and begun to answer
            upstream.close()
            conn.close()  # ...and the client never hears it
            return
        _pipe_both(conn, upstream)


def _read_request(conn: socket.socket) -> bytes:
    """One whole HTTP/1.1 request (headers and a Content-Length body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def _pipe_both(a: socket.socket, b: socket.socket) -> None:
    def pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    other = threading.Thread(target=pipe, args=(b, a), daemon=True)
    other.start()
    pipe(a, b)
    other.join(timeout=5)
    a.close()
    b.close()


@contextmanager
def relay_to(upstream_url: str, mode: str) -> Iterator[Relay]:
    relay = Relay(int(upstream_url.rsplit(":", 1)[1]), mode)
    try:
        yield relay
    finally:
        relay.close()
