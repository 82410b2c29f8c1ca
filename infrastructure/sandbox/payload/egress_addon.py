"""The egress proxy's policy, as a mitmproxy addon. It runs inside the proxy container
(``mitmdump -s egress_addon.py``), never in the service; mitmproxy does all HTTP and TLS parsing.

Policy, from the environment the service sets on the proxy container:
  MAI_EGRESS_ALLOW      comma-separated host names and ``*.suffix`` entries
  MAI_EGRESS_HTTP_PORTS / MAI_EGRESS_HTTPS_PORTS   ports allowed for plain HTTP and for CONNECT
  MAI_EGRESS_MAX_BYTES  bytes the execution may download in all
  MAI_EGRESS_MAX_REQUESTS  requests (and tunnels) it may make in all

* plain HTTP: GET and HEAD only, no request body nor a header announcing one, no protocol upgrade
  (WebSocket, h2c), to an allowed host (by name: the Host header and
  the request target must agree), on an allowed port;
* HTTPS: CONNECT to an allowed host name on an allowed port, and the tunnel must open with a TLS
  ClientHello whose SNI names that same host; the tunnel is relayed without interception, so the
  methods inside it cannot be seen (docs/sandbox.md: what this does and does not guarantee);
* raw IP addresses, other ports and anything that is not HTTP or TLS are refused;
* bytes downloaded and requests made are capped per execution; a transfer that passes the cap is cut.

Every request, allowed or refused, is printed as one JSON line prefixed ``MAI-EGRESS `` on standard
output, which the service reads from the container's log when the run ends. Once the proxy accepts
connections it prints ``MAI-EGRESS-READY``: the service waits for that line in the log, so it need
not reach the proxy's network itself (it may be a container on another network; decision 0017).
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import threading
import time

from mitmproxy import ctx, http, tcp
from mitmproxy.proxy import commands, events, layer, layers
from mitmproxy.proxy.layers.tls import parse_client_hello

MARK = "MAI-EGRESS "
READY = "MAI-EGRESS-READY"


def _say_ready_once_listening(port: int) -> None:
    """Print READY when the proxy's port accepts a connection (mitmproxy opens it after ``running``)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        except OSError:
            time.sleep(0.02)
            continue
        print(READY, flush=True)
        return


class _Refused(layer.Layer):
    """Closes the client's connection without ever opening one upstream."""

    def _handle_event(self, event: events.Event) -> layer.CommandGenerator[None]:
        if isinstance(event, events.Start):
            yield commands.CloseConnection(self.context.client)


def _ports(name: str, default: str) -> set[int]:
    return {int(port) for port in os.environ.get(name, default).split(",") if port.strip()}


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        return False


def _upload_refusal(headers: http.Headers) -> str | None:
    """A read-only egress carries no body and switches to no other protocol: a WebSocket (or h2c)
    upgrade would turn an allowed GET into a channel for uploads."""
    connection = {token.strip().lower() for token in headers.get("connection", "").split(",")}
    if "upgrade" in headers or "upgrade" in connection or "http2-settings" in headers:
        return "protocol upgrades (WebSocket, h2c) are refused: the egress is read-only"
    length = headers.get("content-length")
    if length is not None and length.strip() != "0":
        return "request bodies are refused: the egress is read-only"
    for name in ("transfer-encoding", "expect"):
        if name in headers:
            return f"a {name} header announces a request body, which is refused: the egress is read-only"
    return None


class EgressPolicy:
    def __init__(self) -> None:
        entries = [entry.strip().lower() for entry in os.environ.get("MAI_EGRESS_ALLOW", "").split(",")]
        self.exact = {entry for entry in entries if entry and not entry.startswith("*.")}
        self.suffixes = {entry[1:] for entry in entries if entry.startswith("*.")}
        self.http_ports = _ports("MAI_EGRESS_HTTP_PORTS", "80")
        self.https_ports = _ports("MAI_EGRESS_HTTPS_PORTS", "443")
        self.max_bytes = int(os.environ.get("MAI_EGRESS_MAX_BYTES", str(100 * 1024 * 1024)))
        self.max_requests = int(os.environ.get("MAI_EGRESS_MAX_REQUESTS", "500"))
        self.downloaded = 0
        self.requests = 0
        self.tunnels: dict[str, dict] = {}  # client connection id -> what we know of its tunnel

    # --- the rules ----------------------------------------------------------------------------

    def host_refusal(self, host: str, port: int, ports: set[int]) -> str | None:
        host = (host or "").lower().rstrip(".")
        if not host:
            return "no host named"
        if _is_ip(host):
            return "raw IP addresses are refused: use an allowed host name"
        if port not in ports:
            return f"port {port} is not allowed here (allowed: {sorted(ports)})"
        if host in self.exact or any(host.endswith(suffix) for suffix in self.suffixes):
            return None
        return "host is not on the allow-list"

    def budget_refusal(self) -> str | None:
        if self.requests >= self.max_requests:
            return f"request cap reached ({self.max_requests} per execution)"
        if self.downloaded >= self.max_bytes:
            return f"download cap reached ({self.max_bytes} bytes per execution)"
        return None

    def running(self) -> None:
        threading.Thread(target=_say_ready_once_listening, args=(ctx.options.listen_port or 8080,), daemon=True).start()

    @staticmethod
    def record(**fields: object) -> None:
        print(MARK + json.dumps({"time": round(time.time(), 3), **fields}), flush=True)

    # --- HTTPS: CONNECT, then a TLS ClientHello whose SNI must agree -----------------------------

    def http_connect(self, flow: http.HTTPFlow) -> None:
        host, port = flow.request.host, flow.request.port
        reason = self.host_refusal(host, port, self.https_ports) or self.budget_refusal()
        if reason:
            flow.response = http.Response.make(403, f"mai-safety egress: {reason}\n".encode())
            self.record(kind="connect", method="CONNECT", host=host, port=port, verdict="refused", reason=reason, bytes=0)
            return
        self.requests += 1
        self.tunnels[flow.client_conn.id] = {"host": host.lower(), "port": port, "verdict": "allowed", "reason": ""}

    def next_layer(self, nextlayer: layer.NextLayer) -> None:
        context = nextlayer.context
        tunnel = self.tunnels.get(context.client.id)
        if tunnel is None or context.server.address is None or "checked" in tunnel:
            return  # not inside a CONNECT tunnel we opened: mitmproxy's own choice stands
        data = nextlayer.data_client()
        if not data:
            nextlayer.layer = None
            return
        try:
            hello = parse_client_hello(data)
        except ValueError:
            hello = None
            tunnel.update(verdict="refused", reason="the tunnel did not open with TLS: only HTTPS may pass")
        else:
            if hello is None and data[:1] == b"\x16":
                nextlayer.layer = None  # the ClientHello is not complete yet
                return
            if hello is None:
                tunnel.update(verdict="refused", reason="the tunnel did not open with TLS: only HTTPS may pass")
            elif (hello.sni or "").lower().rstrip(".") != tunnel["host"]:
                tunnel.update(
                    verdict="refused",
                    reason=f"TLS SNI {hello.sni!r} does not match the CONNECT host {tunnel['host']!r}",
                )
            tunnel["sni"] = hello.sni if hello else None
        tunnel["checked"] = True
        if tunnel["verdict"] == "refused":
            nextlayer.layer = _Refused(context)
            return
        # Relay without interception, but as a flow, so that bytes are counted and can be cut.
        nextlayer.layer = layers.TCPLayer(context)

    def tcp_start(self, flow: tcp.TCPFlow) -> None:
        tunnel = self.tunnels.get(flow.client_conn.id)
        if tunnel is not None:
            tunnel.setdefault("bytes", 0)
            return
        if flow.killable:
            flow.kill()  # raw TCP outside a checked tunnel is never allowed

    def client_disconnected(self, client) -> None:  # type: ignore[no-untyped-def]
        # A refused tunnel never becomes a TCP flow: record it when its client goes.
        self._record_tunnel(self.tunnels.pop(client.id, None))

    def tcp_message(self, flow: tcp.TCPFlow) -> None:
        tunnel = self.tunnels.get(flow.client_conn.id)
        message = flow.messages[-1]
        if tunnel is None or message.from_client:
            return
        tunnel["bytes"] = tunnel.get("bytes", 0) + len(message.content)
        self.downloaded += len(message.content)
        if self.downloaded > self.max_bytes:
            # mitmproxy cannot close a relayed connection mid-transfer, so past the cap nothing more
            # is passed on: the client sees the transfer stall and end short.
            tunnel.update(verdict="cut", reason=f"download cap passed ({self.max_bytes} bytes per execution)")
            message.content = b""
            if flow.killable:
                flow.kill()

    def tcp_end(self, flow: tcp.TCPFlow) -> None:
        self._close_tunnel(flow)

    def tcp_error(self, flow: tcp.TCPFlow) -> None:
        self._close_tunnel(flow)

    def _close_tunnel(self, flow: tcp.TCPFlow) -> None:
        self._record_tunnel(self.tunnels.pop(flow.client_conn.id, None))

    def _record_tunnel(self, tunnel: dict | None) -> None:
        if tunnel is not None:
            self.record(
                kind="tunnel",
                method="CONNECT",
                host=tunnel["host"],
                port=tunnel["port"],
                sni=tunnel.get("sni"),
                verdict=tunnel["verdict"],
                reason=tunnel["reason"],
                bytes=tunnel.get("bytes", 0),
            )

    # --- plain HTTP: GET and HEAD, no body ------------------------------------------------------

    def requestheaders(self, flow: http.HTTPFlow) -> None:
        request = flow.request
        if flow.client_conn.id in self.tunnels:
            return  # inside a tunnel we relay as TCP; never reached, kept for safety
        host_header = (request.host_header or "").split(":")[0].lower()
        reason = self.host_refusal(request.host, request.port, self.http_ports)
        if reason is None and host_header and host_header != request.host.lower():
            reason = f"the Host header {host_header!r} does not match the request target {request.host!r}"
        if reason is None and request.method not in ("GET", "HEAD"):
            reason = f"method {request.method} is refused: the egress is read-only (GET and HEAD)"
        if reason is None:
            reason = _upload_refusal(request.headers)
        reason = reason or self.budget_refusal()
        if reason:
            flow.response = http.Response.make(403, f"mai-safety egress: {reason}\n".encode())
            flow.metadata["mai_verdict"] = ("refused", reason)
            return
        self.requests += 1
        flow.metadata["mai_verdict"] = ("allowed", "")

    def responseheaders(self, flow: http.HTTPFlow) -> None:
        if flow.metadata.get("mai_verdict", ("",))[0] != "allowed" or flow.response is None:
            return
        flow.metadata["mai_bytes"] = 0

        def count(chunk: bytes) -> bytes:
            flow.metadata["mai_bytes"] += len(chunk)
            self.downloaded += len(chunk)
            if self.downloaded > self.max_bytes:
                flow.metadata["mai_verdict"] = ("cut", f"download cap passed ({self.max_bytes} bytes per execution)")
                if flow.killable:
                    flow.kill()
                return b""
            return chunk

        flow.response.stream = count

    def response(self, flow: http.HTTPFlow) -> None:
        self._record_http(flow)

    def error(self, flow: http.HTTPFlow) -> None:
        self._record_http(flow)

    def _record_http(self, flow: http.HTTPFlow) -> None:
        if flow.metadata.get("mai_recorded") or flow.request.method == "CONNECT":
            return
        flow.metadata["mai_recorded"] = True
        verdict, reason = flow.metadata.get("mai_verdict", ("refused", "not checked"))
        self.record(
            kind="http",
            method=flow.request.method,
            host=flow.request.host,
            port=flow.request.port,
            path=flow.request.path[:200],
            status=flow.response.status_code if flow.response else None,
            verdict=verdict,
            reason=reason,
            bytes=flow.metadata.get("mai_bytes", 0),
        )


addons = [EgressPolicy()]
