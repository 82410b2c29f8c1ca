"""The per-user service (issue #29, docs/local-service.md): local mode kept warm. ``mai-safety run``
without ``MAI_SAFETY_URL`` finds or starts it (``cli/user_service.py``); it serves the HTTP API on
a Unix socket in the owner's private runtime folder (0700; the socket 0600), over the ledger, key
and witness local mode uses, with the analyzers, the verdict cache and the policy's pool warm, and
exits once nothing has asked it anything for its idle period.

Trust: that of local mode, unchanged. Only the owner can reach the socket (the folder is theirs
and 0700), so the caller is the owner, and who acts is what the owner's CLI says
(``MAI_SAFETY_ACTOR`` or the login), sent in ``X-Mai-Safety-Actor``, exactly as the local CLI
stamps it in-process; the gate's rules (``policies/gate.yaml``) judge that name, as in local mode.
No token is asked for and none is accepted in its place.

Run as ``python -m mai_safety.infrastructure.http.user_service SOCKET IDLE_S FINGERPRINT`` (the CLI
does it, with its own environment)."""

from __future__ import annotations

import os
import re
import signal
import socket
import sys
import threading
import time
from base64 import b64decode
from pathlib import Path
from uuid import uuid4
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict
from starlette.types import ASGIApp, Receive, Scope, Send

from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.limits import RequestedLimits
from mai_safety.domain.network import NetworkMode
from mai_safety.application.live import LiveOutput
from mai_safety.domain.access import Principal, Role
from mai_safety.domain.levels import Provenance

from ..bootstrap import bootstrap, default_actor, start_alerts
from ..cli.local import failure_of
from ..periodic import Periodic
from ..settings import Settings
from .app import create_app
from .auth import principal
from .runs import Runs
from .server import SERVICE_ACTOR, STOP_WITHIN_S, LeaseKeeper, Sweeper, _Server, _stop

#: The header that names who acts: the owner's CLI sends MAI_SAFETY_ACTOR (or the login).
ACTOR_HEADER = "X-Mai-Safety-Actor"
#: What the service answers at ``GET /v1/local``: the client checks it is the service it wants.
VERSION = "mai-safety-user-service/1"
_ACTOR = re.compile(r"^[\x21-\x7e][\x20-\x7e]{0,199}$")
#: How long a run's drain may take when the service stops by itself (idle: nothing runs then).
GRACE_S = 30.0


def owner_principal(settings: Settings) -> Any:
    """The dependency that stands for ``auth.principal`` here: the owner, acting as the name their
    CLI sends, with every role (local mode checks no role: the gate's rules judge the name)."""
    owner = default_actor(settings)

    def who(request: Request) -> Principal:
        named = request.headers.get(ACTOR_HEADER, "")
        actor = named if _ACTOR.match(named) else owner
        return Principal(actor, frozenset(Role), token_id="", provenances=frozenset(Provenance))

    return who


class Activity:
    """ASGI middleware: when a request last ended, and how many are under way (``GET /v1/local``,
    which only asks what the service is, counts as neither: a probe does not keep it alive)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.active = 0
        self.last = time.monotonic()
        self.lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (scope["method"] == "GET" and scope["path"] == "/v1/local"):
            await self.app(scope, receive, send)  # asking what it is keeps nobody's service alive
            return
        with self.lock:
            self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            with self.lock:
                self.active -= 1
                self.last = time.monotonic()

    def idle_for(self) -> float:
        with self.lock:
            return 0.0 if self.active else time.monotonic() - self.last


class IdleExit(Periodic):
    """Stops the server once no request and no run has been under way for ``idle_s``."""

    what = "watching for the idle period"

    def __init__(self, server: _Server, activity: Activity, runs: Runs, idle_s: float) -> None:
        super().__init__("mai-safety-idle", min(1.0, idle_s / 4))
        self.server, self.activity, self.runs, self.idle_s = server, activity, runs, idle_s

    def tick(self) -> None:
        if self.activity.idle_for() >= self.idle_s and not self.runs.running_ids():
            self.server.should_exit = True


class LocalRun(BaseModel):
    """``run`` as the local CLI read it (FILE, the flags, the input files): the code as bytes,
    base64, so that the service judges exactly what the CLI read (non-UTF-8 included)."""

    model_config = ConfigDict(extra="forbid")
    code: str
    source: str
    provenance: Provenance = Provenance.MAI
    limits: dict[str, float | int | None] = {}
    confirm: bool = False
    override: str | None = None
    network: NetworkMode = NetworkMode.NONE
    requirements: list[str] = []
    revises: str | None = None
    files: list[tuple[str, str]] = []
    image: str = "default"


class LocalAnswer(BaseModel):
    """The terminal's answer to HIGH code the owner was asked about."""

    model_config = ConfigDict(extra="forbid")
    execution_id: str
    approve: bool
    explanation: str


def local_routes(api: FastAPI, service: MaiSafety, runs: Runs, fingerprint: str, server: _Server, owner: str) -> None:
    """The owner's routes: ``run`` and the terminal's answer as the local CLI does them in-process
    (the same application calls, the same messages and exit statuses: ``cli.local.failure_of``),
    what this service is, and its stop."""

    def actor_of(request: Request) -> str:
        named = request.headers.get(ACTOR_HEADER, "")
        return named if _ACTOR.match(named) else owner

    def answer(actor: str, execution_id: str, work: Any) -> dict[str, Any]:
        def act() -> Any:
            with acting_as(actor):
                return work()

        try:
            return {"report": runs.start(execution_id, act).result().to_dict()}
        except Exception as exc:  # noqa: BLE001 - said as the local CLI says it, with its exit status
            message, status = failure_of(exc)
            return {"error": message, "exit": status}

    @api.post("/v1/local/run", include_in_schema=False)
    def run(request: Request, body: LocalRun) -> dict[str, Any]:
        execution_id = uuid4()  # known before it runs: the drain can end it
        return answer(actor_of(request), str(execution_id), lambda: service.run(
            b64decode(body.code), provenance=body.provenance, requested=RequestedLimits(**body.limits), source=body.source,
            confirm=body.confirm, override=body.override, network=body.network, requirements=body.requirements,
            execution_id=execution_id, revises=body.revises, files=[(name, b64decode(data)) for name, data in body.files],
            image=body.image,
        ))

    @api.post("/v1/local/answer", include_in_schema=False)
    def answer_at_the_terminal(request: Request, body: LocalAnswer) -> dict[str, Any]:
        if body.approve:
            return answer(actor_of(request), body.execution_id, lambda: service.approve(body.execution_id, body.explanation))
        return answer(actor_of(request), body.execution_id, lambda: service.deny(body.execution_id, body.explanation))

    @api.get("/v1/local", include_in_schema=False)
    def describe() -> dict[str, Any]:
        return {"version": VERSION, "fingerprint": fingerprint, "pid": os.getpid()}

    @api.post("/v1/local/stop", include_in_schema=False)
    def stop() -> dict[str, str]:
        server.should_exit = True
        return {"status": "stopping"}


class _OwnersServer(_Server):
    """The service's server, saying where it listens: its socket, not a host and port."""

    path: Path | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await uvicorn.Server.startup(self, sockets)  # uvicorn's own, without _Server's line
        if self.started:
            sys.stderr.write(f"mai-safety: the per-user service serves on {self.path} (pid {os.getpid()})\n")
            sys.stderr.flush()


def listen(path: Path) -> tuple[socket.socket, int]:
    """The socket, 0600 (its folder is 0700 already: the client made it), and its file's inode."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    os.chmod(path, 0o600)
    listener.listen(64)
    return listener, os.stat(path).st_ino


def serve_user(settings: Settings, path: Path, idle_s: float, fingerprint: str) -> int:
    """Serve on ``path`` until idle for ``idle_s`` (or told to stop, or SIGTERM), then drain and exit."""
    with acting_as(SERVICE_ACTOR):
        service = bootstrap(settings, remove_in_background=True)
        service.live = LiveOutput()
        runs, stopping = Runs(), threading.Event()
        sweeper, lease = Sweeper(service, 5.0), LeaseKeeper(service, 45.0)
        alerts = start_alerts(settings, service)
        closed = False

        def close() -> None:
            nonlocal closed
            closed = True
            sweeper.stop()
            lease.stop(wait_s=1.0)
            lease.release()
            alerts.close()
            service.close()

        try:
            lease.tick()
            lease.start()
            service.recover()
            sweeper.start()
            api = create_app(service, runs, max_code_bytes=settings.max_code_bytes, stopping=stopping)
            api.dependency_overrides[principal] = owner_principal(settings)
            activity = Activity(api)
            server = _OwnersServer(uvicorn.Config(activity, log_level="warning", access_log=False, timeout_graceful_shutdown=GRACE_S, lifespan="off"))
            server.stopping, server.path = stopping, path
            local_routes(api, service, runs, fingerprint, server, default_actor(settings))
            idle = IdleExit(server, activity, runs, idle_s)
            listener, inode = listen(path)
            idle.start()
            for sig in (signal.SIGTERM, signal.SIGINT):  # a signal stops serving; the drain and the pool's removal follow
                signal.signal(sig, server.stop_on_signal)
            try:
                server.run(sockets=[listener])
            finally:
                idle.stop(wait_s=1.0)
                _unlink_if_ours(path, inode)
                listener.close()
            return _stop(service, runs, GRACE_S, server.signalled_at or time.monotonic(), close)
        finally:
            if not closed:
                close()


def _unlink_if_ours(path: Path, inode: int) -> None:
    """The socket file goes with the service, unless a newer service bound the path meanwhile."""
    try:
        if os.stat(path).st_ino == inode:
            path.unlink()
    except OSError:
        pass


def main(argv: list[str]) -> int:
    path, idle_s, fingerprint = Path(argv[0]), float(argv[1]), argv[2]
    try:
        return serve_user(Settings.from_environment(), path, idle_s, fingerprint)
    except Exception as exc:  # noqa: BLE001 - the CLI reads this one line from the service's log
        sys.stderr.write(f"mai-safety: the per-user service stopped: {type(exc).__name__}: {exc}\n")
        return 70


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


__all__ = ["ACTOR_HEADER", "STOP_WITHIN_S", "VERSION", "main", "serve_user"]
