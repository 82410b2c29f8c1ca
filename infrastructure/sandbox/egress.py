"""The egress of a run with ``--network deps`` (decision 0006): an internal network with no route
out, and a proxy container on it (mitmproxy with payload/egress_addon.py) as the sandbox's one way
out, to the allowed package indexes only; after the run, every request the proxy saw.

What the engine mounts (the proxy's addon, this environment's pip) is first copied into the work
root, whose paths are the host's in the compose deployment too (MAI_SAFETY_WORK_DIR, decision
0017); and the proxy says in its log when it accepts connections, so the supervisor never needs to
reach the proxy's network: both make ``--network deps`` work from the service container.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

from mai_safety.application.errors import SandboxUnavailable

from . import payload
from .capture import egress_requests
from .cleanup import SHARED_PREFIX
from .containers import LABEL_ROLE, RunHandle
from .errors import BestEffort
from .package_index import certificate_bundle, configured_certificates

PROXY_PORT = 8080
_PROXY_READY = b"MAI-EGRESS-READY"  # payload/egress_addon.py's READY line
#: The CA bundle the host's pip trusts, as the sandbox's pip finds it (the run's folder is /sandbox).
PIP_CERTIFICATES = "pip-certificates.pem"
_NO_HOST_ADDRESS = "com.docker.network.bridge.inhibit_ipv4"
NO_IPV6 = {"net.ipv6.conf.all.disable_ipv6": "1", "net.ipv6.conf.default.disable_ipv6": "1"}


def pip_package() -> Path:
    """This environment's pip, mounted read-only for deps mode. Found only when deps mode asks: the
    service image carries no pip (deps mode is refused there; decision 0017)."""
    spec = importlib.util.find_spec("pip")
    if spec is None or not spec.origin:
        raise SandboxUnavailable("--network deps mounts this environment's pip into the sandbox, and it has none: install pip")
    return Path(spec.origin).parent


def host_copy(root: Path, source: Path) -> Path:
    """``source`` (a file or a folder) copied once into ``root``, the work root, under a name that
    changes with its contents: the engine resolves a mount's source on the host, and inside the
    service container this process's own files are not the host's. Readable by the sandbox's and
    the proxy's users; never written again (a changed source gets a new copy)."""
    found = source.stat()
    digest = hashlib.sha256(f"{source.resolve()}\0{found.st_mtime_ns}\0{found.st_size}".encode())
    if source.is_file():
        digest.update(source.read_bytes())
    target = root / f"{SHARED_PREFIX}{source.name}-{digest.hexdigest()[:16]}"
    if target.exists():
        return target
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=root))
    try:
        made = staging / source.name
        if source.is_dir():
            shutil.copytree(source, made, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copyfile(source, made)
        for path in [made, *(made.rglob("*") if made.is_dir() else [])]:
            path.chmod(0o755 if path.is_dir() else 0o444)
        staging.chmod(0o755)
        try:
            staging.rename(target)
        except OSError:
            if not target.exists():  # not another run's copy of the same: a real failure
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


def sandbox_options(handle: RunHandle) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """The sandbox's network options, environment and extra volumes once its proxy runs: the proxy
    is its only way out, and it resolves no names itself. The certificates the host's pip trusts
    are copied into the run's read-only folder and named to the sandbox's pip (PIP_CERT)."""
    proxy_url = handle.proxy_url
    network_options = {"network": handle.network_name, "dns": ["127.0.0.1"], "sysctls": NO_IPV6}
    environment = {name: proxy_url for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")}
    environment["MAI_SAFETY_PROXY"] = proxy_url
    trusted = configured_certificates()
    if trusted is not None:
        copy = handle.workdir / PIP_CERTIFICATES
        copy.write_bytes(certificate_bundle(trusted))
        copy.chmod(0o444)
        environment["PIP_CERT"] = f"/sandbox/{PIP_CERTIFICATES}"
    pip = host_copy(handle.workdir.parent, pip_package()) / "pip"
    volumes = {str(pip): {"bind": "/opt/pip/pip", "mode": "ro"}}
    return network_options, environment, volumes


def start_egress(
    client: Any, handle: RunHandle, execution_id: str, labels: dict[str, str], *, proxy_image: str, upstream_network: str
) -> None:
    """An internal network with no route out, and the proxy as the sandbox's one way out of it.
    Sets the handle's network name and proxy URL (its address on the internal network); the proxy
    boots while the sandbox is made: wait_for_proxy() before the code runs."""
    network = handle.network
    handle.network_name = f"mai-safety-egress-{execution_id[:12]}-{os.urandom(3).hex()}"
    # The bridge gets no address of the host's: the sandbox can then reach the proxy beside it and
    # nothing of the host, whose services answer on every address it has (decision 0006).
    internal = client.networks.create(
        handle.network_name, driver="bridge", internal=True, labels=labels, options={_NO_HOST_ADDRESS: "true"}
    )
    handle.internal = internal
    _check_no_host_address(internal)
    proxy = client.containers.create(
        proxy_image,
        command=[
            "python3", "-c", "import sys; from mitmproxy.tools.main import mitmdump; sys.exit(mitmdump())",
            "-q", "--listen-host", "0.0.0.0", "-p", str(PROXY_PORT),
            "--set", "connection_strategy=lazy", "--set", "confdir=/opt/egress-conf",
            "-s", "/addon/egress_addon.py",
        ],
        user="65534:65534",
        cap_drop=["ALL"],
        security_opt=["no-new-privileges:true"],
        read_only=True,
        tmpfs={"/tmp": "rw,nosuid,nodev,noexec,size=32m,mode=1777"},
        mem_limit=256 * 1024 * 1024,
        memswap_limit=256 * 1024 * 1024,
        pids_limit=64,
        nano_cpus=int(1e9),
        environment={
            "MAI_EGRESS_ALLOW": ",".join(network.allow),
            "MAI_EGRESS_HTTP_PORTS": ",".join(str(port) for port in network.http_ports),
            "MAI_EGRESS_HTTPS_PORTS": ",".join(str(port) for port in network.https_ports),
            "MAI_EGRESS_MAX_BYTES": str(network.max_bytes),
            "MAI_EGRESS_MAX_REQUESTS": str(network.max_requests),
        },
        volumes={str(host_copy(handle.workdir.parent, payload.EGRESS_ADDON) / "egress_addon.py"): {"bind": "/addon/egress_addon.py", "mode": "ro"}},
        network=upstream_network,
        labels={**labels, LABEL_ROLE: "egress-proxy"},
        log_config={"type": "json-file", "config": {"max-size": "10m"}},
        detach=True,
    )
    handle.proxy = proxy
    internal.connect(proxy)
    proxy.start()
    proxy.reload()
    networks = proxy.attrs["NetworkSettings"]["Networks"]
    inside = networks[handle.network_name]["IPAddress"]
    handle.proxy_outside = networks.get(upstream_network, {}).get("IPAddress") or inside
    handle.proxy_url = f"http://{inside}:{PROXY_PORT}"


def wait_for_proxy(handle: RunHandle, timeout_s: float = 30) -> None:
    """Until the proxy says in its log that it accepts connections (payload/egress_addon.py):
    SandboxUnavailable if it ended or did not in time."""
    deadline = time.monotonic() + timeout_s
    container = handle.proxy
    while time.monotonic() < deadline:
        if _PROXY_READY in container.logs(stdout=True, stderr=False, tail=20):
            return
        container.reload()
        if container.status not in ("created", "running"):
            log = container.logs(tail=5).decode("utf-8", "replace").strip()
            raise SandboxUnavailable(f"the egress proxy did not start: {log[-300:]}")
        time.sleep(0.05)
    raise SandboxUnavailable(f"the egress proxy did not accept connections within {timeout_s:g} s")


def egress_record(handle: RunHandle) -> dict[str, Any]:
    """Every request the proxy saw, allowed or refused, from its log; read after it stops."""
    log = ""
    with BestEffort():
        # The code has ended and its connections are closed; the proxy records each as it sees it
        # close, which takes it a moment.
        time.sleep(0.05)
        handle.proxy.kill()
        log = handle.proxy.logs(stdout=True, stderr=False).decode("utf-8", "replace")
    requests_seen = egress_requests(log)
    verdicts: dict[str, int] = {}
    for request in requests_seen:
        verdicts[request.get("verdict", "?")] = verdicts.get(request.get("verdict", "?"), 0) + 1
    return {
        "mode": handle.network.mode.value,
        "allow": list(handle.network.allow),
        "requests": requests_seen,
        "verdicts": verdicts,
        "bytes": sum(int(request.get("bytes") or 0) for request in requests_seen),
    }


def _check_no_host_address(network: Any) -> None:
    """Fail closed if the engine gave the egress bridge an IPv4 address of the host after all (an
    engine that ignores the option). Where the engine runs elsewhere the bridge is not visible
    here, and the option stands on its own."""
    bridge = "br-" + str(network.id)[:12]
    addresses = psutil.net_if_addrs().get(bridge, [])
    if any(address.family == socket.AF_INET for address in addresses):
        raise SandboxUnavailable(
            f"the Docker engine gave the egress bridge {bridge} an address of the host, so the sandbox "
            "could reach the host's services: --network deps is refused on this engine"
        )

