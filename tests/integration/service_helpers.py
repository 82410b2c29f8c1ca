"""A real `mai-safety serve` in a subprocess on a free loopback port, with the test's own ledger,
policies and home, and tokens granted on that ledger as the operator would."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from mai_safety.domain.access import Role
from mai_safety.infrastructure.bootstrap import bootstrap

from .cli_helpers import STARTED_PIDS, policies_with
from .conftest import settings_for

SERVE = [sys.executable, "-m", "mai_safety.infrastructure.cli", "serve"]


def read_events(response: httpx.Response) -> Iterator[tuple[float, str, Any]]:
    """(arrival time, event, data) for each server-sent event, as it arrives."""
    event, data = "message", []
    for line in response.iter_lines():
        if line == "":
            if data:
                yield time.monotonic(), event, json.loads("\n".join(data))
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def grant_tokens(database_url: str, policies: Path, principals: dict[str, list[str]]) -> dict[str, str]:
    """Tokens for each principal, granted on the ledger by the operator (in this process)."""
    app = bootstrap(settings_for(database_url, policies), warm_semgrep=False)
    try:
        return {name: app.grant_token(name, [Role(role) for role in roles]).token for name, roles in principals.items()}
    finally:
        app.close()


class Server:
    def __init__(self, process: subprocess.Popen[bytes], url: str, log: Path) -> None:
        self.process = process
        self.url = url
        self.log = log

    def client(self, token: str | None = None, **headers: str) -> httpx.Client:
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return httpx.Client(base_url=self.url, headers=headers, timeout=90)

    def stop(self, timeout: float = 60) -> int:
        """SIGTERM, as a service manager stops it; killed if it does not end in time."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def running_servers(
    count: int, tmp: Path, database_url: str, policies: Path, env: dict[str, str] | None = None, args: list[str] | None = None
) -> Iterator[list[Server]]:
    """``count`` services started at the same moment on one ledger (their starts, recovery
    included, overlap); each is waited for, and all are stopped whatever happens."""
    full_env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    full_env.update({"MAI_SAFETY_DATABASE_URL": database_url, "MAI_SAFETY_POLICIES": str(policies), **(env or {})})
    servers: list[Server] = []
    try:
        for _ in range(count):
            port = free_port()
            log = tmp / f"serve-{port}.log"
            with log.open("wb") as sink:
                process = subprocess.Popen(
                    SERVE + ["--port", str(port), *(args or [])], env=full_env, stdout=sink, stderr=subprocess.STDOUT
                )
            STARTED_PIDS.add(process.pid)
            servers.append(Server(process, f"http://127.0.0.1:{port}", log))
        for server in servers:
            _wait_until_it_answers(server)
        yield servers
    finally:
        for server in servers:
            server.stop()


def _wait_until_it_answers(server: Server) -> None:
    deadline = time.monotonic() + 60
    while True:
        if server.process.poll() is not None:
            raise AssertionError(f"mai-safety serve exited with {server.process.returncode}: {server.output()}")
        try:
            if httpx.get(f"{server.url}/v1/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"mai-safety serve did not answer within 60 s: {server.output()}")
        time.sleep(0.1)


@contextmanager
def running_server(
    tmp: Path, database_url: str, policies: Path, env: dict[str, str] | None = None, args: list[str] | None = None,
    prefix: list[str] | None = None,
) -> Iterator[Server]:
    """Start the service and wait until it answers; stop it (SIGTERM, then kill) whatever happens.
    ``prefix``: a command the service is started under (which must exec it: its pid stays the service's)."""
    port = free_port()
    full_env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    full_env.update({"MAI_SAFETY_DATABASE_URL": database_url, "MAI_SAFETY_POLICIES": str(policies), **(env or {})})
    log = tmp / f"serve-{port}.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*(prefix or []), *SERVE, "--port", str(port), *(args or [])], env=full_env, stdout=sink, stderr=subprocess.STDOUT
        )
    STARTED_PIDS.add(process.pid)
    server = Server(process, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise AssertionError(f"mai-safety serve exited with {process.returncode}: {server.output()}")
            try:
                if httpx.get(f"{server.url}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"mai-safety serve did not answer within 60 s: {server.output()}")
            time.sleep(0.1)
        yield server
    finally:
        server.stop()


@dataclass
class ServedLedger:
    """A test module's own served ledger: the server, its principals' tokens, where it all lives."""

    server: Server
    tokens: dict[str, str]
    tmp: Path
    database_url: str
    policies: Path


@contextmanager
def served_ledger(
    tmp: Path, principals: dict[str, list[str]], args: list[str] | None = None, **policy_changes: dict[str, Any]
) -> Iterator[ServedLedger]:
    """A SQLite ledger in ``tmp``, the suite's policies with ``policy_changes`` (policies_with),
    a token per principal, and `mai-safety serve` over them until the block ends."""
    policies = policies_with(tmp, **policy_changes)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, principals)
    with running_server(tmp, database_url, policies, args=args) as server:
        yield ServedLedger(server, tokens, tmp, database_url, policies)
