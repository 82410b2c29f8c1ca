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

from mai_safety.application.errors import ConfigurationError
from mai_safety.application.service import MaiSafety
from mai_safety.domain.errors import InvalidSubmission
from mai_safety.domain.levels import Provenance
from mai_safety.domain.network import NetworkMode, NetworkNotAllowed
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
    left = docker_client.networks.list(filters={"label": "mai-safety.managed=1"})
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
