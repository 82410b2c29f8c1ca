"""``mai-safety serve``: the resident service. At start it recovers what a dead process left; while
it serves, it renews its lease on the ledger (application.abandoned) and a sweeper ends executions
whose answer did not come in time or whose holder is gone (a peer whose lease expired); on SIGTERM or SIGINT it
stops accepting, lets running executions finish within a grace period, ends the rest recorded
(``service_stopped``), seals and exits 0. The stop keeps its bound whatever the database does: it
exits at most ``--grace`` + ``STOP_WITHIN_S`` after the signal, and with status 5 and one line
saying how many executions it left open when the ledger did not let it record their ends (the
next start's recovery ends them)."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import uvicorn

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.abandoned import LEASE_S
from mai_safety.application.commands import ServiceMode
from mai_safety.application.live import LiveOutput
from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.application.sessions import Sessions

from ..bootstrap import bootstrap, read_models, sessions_of, start_alerts
from ..cli.exit_codes import EXIT_UNAVAILABLE
from ..settings import Settings
from .app import create_app
from .follower import ViewFollower
from ..periodic import Periodic
from .runs import Runs
from .streams import StreamSlots

#: The actor of what the service does on its own (recovery, the sweeper, the drain): never a
#: caller's name, and never MAI_SAFETY_ACTOR.
SERVICE_ACTOR = "mai-safety-service"

log = logging.getLogger("mai_safety.http")

#: After the grace, how long the stop may take to record the ends of the runs still going and to
#: close (seal, stop its threads, remove its pool): SIGTERM to exit is at most ``--grace`` plus this,
#: whatever the database does. What it could not do by then is left to the next start's recovery.
STOP_WITHIN_S = 3.0


class Sweeper(Periodic):
    """Every ``every_s`` seconds, in a thread of its own: ends overdue waits, and the executions
    a gone holder left (a peer whose lease expired, a start this server gave up: application.abandoned)."""

    what = "the sweeper"

    def __init__(self, service: MaiSafety, every_s: float) -> None:
        super().__init__("mai-safety-sweeper", every_s)
        self.service = service

    sessions: Sessions | None = None  # issue #27: idle and past their lifetime, ended by the same rounds

    def sweep(self) -> list[str]:
        with acting_as(SERVICE_ACTOR):
            ended = self.service.sweep()
            if self.sessions is not None:
                self.sessions.sweep()
            return ended

    def tick(self) -> None:
        ended = self.sweep()
        if ended:
            log.warning("ended %d execution(s) left waiting past their answer time or by a gone holder: %s", len(ended), ", ".join(ended))


class LeaseKeeper(Periodic):
    """Renews this server's lease on the ledger every third of its period (application.abandoned)."""

    what = "renewing the lease"

    def __init__(self, service: MaiSafety, lease_s: float) -> None:
        super().__init__("mai-safety-lease", lease_s / 3)
        self.service = service
        service.liveness.lease_s = lease_s

    def tick(self) -> None:
        self.service.renew_lease()

    def release(self) -> None:
        try:
            self.service.release_lease()
        except Exception as exc:  # noqa: BLE001 - it expires by itself within its period
            log.warning("could not give the lease up (%s: %s); it expires within its period", type(exc).__name__, exc)


def serve(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8750,
    max_wait_s: float = 60.0,
    grace_s: float = 30.0,
    sweep_every_s: float = 5.0,
    max_streams: int = 64,
    max_streams_per_principal: int = 8,
    lease_s: float = LEASE_S,
) -> int:
    with acting_as(SERVICE_ACTOR):  # requests act as their token's principal (app.as_principal)
        return _serve(
            settings, host, port, max_wait_s, grace_s, sweep_every_s, StreamSlots(max_streams, max_streams_per_principal), lease_s
        )


def _serve(
    settings: Settings, host: str, port: int, max_wait_s: float, grace_s: float, sweep_every_s: float, slots: StreamSlots,
    lease_s: float = LEASE_S,
) -> int:
    # Tokens' roles answer the gate; output as it comes, for the event streams (never recorded); the
    # answer does not wait for a container's removal.
    service = bootstrap(settings, remove_in_background=True, mode=ServiceMode(roles_decide=True, live=LiveOutput()))
    stopping = threading.Event()  # set on SIGTERM/SIGINT: open event streams close
    runs = Runs()
    sweeper = Sweeper(service, sweep_every_s)
    sweeper.sessions = sessions = sessions_of(service)
    lease = LeaseKeeper(service, lease_s)
    alerts = None
    follower = ViewFollower(read_models(service))  # keeps the views current (docs/decisions/0021)
    closed = False

    def close() -> None:
        nonlocal closed
        closed = True
        sweeper.stop()
        lease.stop(wait_s=1.0)
        lease.release()  # what this server left open is its peers' at once (or recovery's at the next start)
        if alerts is not None:
            alerts.close()
        follower.stop()
        if sessions is not None:
            sessions.end_all()  # recorded as ended by the service's stop; their containers go
        service.close()  # seals the endings still owed a checkpoint

    try:
        alerts = start_alerts(settings, service)  # webhook alerts follow the ledger (docs/decisions/0022)
        try:
            lease.tick()  # held before this server records anything
        except Exception as exc:  # noqa: BLE001 - the keeper tries again; until then no peer is judged by lease
            sys.stderr.write(f"mai-safety: could not take the lease yet ({type(exc).__name__}: {exc}); trying again\n")
        lease.start()
        try:
            recovered = service.recover()
        except SandboxUnavailable as exc:
            # Serve all the same: /v1/status says what is down, and runs answer 503 until it is up.
            sys.stderr.write(f"mai-safety: recovery skipped: {exc.message}\n")
            recovered = []
        if sessions is not None:
            with contextlib.suppress(SandboxUnavailable):  # said by the recovery above
                recovered += sessions.recover()  # sessions whose server is gone end, with their containers
        if recovered:
            sys.stderr.write(f"mai-safety: recovered {len(recovered)} execution(s) or session(s) whose supervisor was gone\n")
        try:
            sweeper.sweep()
        except SandboxUnavailable:
            pass  # said by the recovery above, which met it first; the sweeper's rounds try again
        sweeper.start()
        follower.start()
        api = create_app(
            service, runs, max_code_bytes=settings.max_code_bytes, max_wait_s=max_wait_s, streams=slots, stopping=stopping,
            read_models=follower.models, sessions=sessions,
        )
        config = uvicorn.Config(
            api, host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=grace_s,
            server_header=False,
        )
        server = _Server(config)
        server.stopping = stopping
        previous = {sig: signal.signal(sig, server.stop_on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            try:
                server.run()  # returns after SIGTERM/SIGINT, once the open requests are answered or the grace is over
            except SystemExit:  # uvicorn exits when it cannot listen
                server.started = False
            if not server.started:
                sys.stderr.write(f"mai-safety: could not listen on {host}:{port} (see above): choose another --host or --port\n")
                return 6
            return _stop(service, runs, grace_s, server.signalled_at or time.monotonic(), close)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
    finally:
        if not closed:
            close()


class _Server(uvicorn.Server):
    """uvicorn's server without its own signal handling: uvicorn raises the signal again once it
    has stopped, which would kill the process before the drain; here a signal only stops serving."""

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            config = self.config
            sys.stderr.write(f"mai-safety: serving on http://{config.host}:{config.port} (OpenAPI at /openapi.json)\n")
            sys.stderr.flush()

    stopping: threading.Event | None = None
    signalled_at: float | None = None  # time.monotonic() of the first SIGTERM/SIGINT: the stop's bound runs from it

    def stop_on_signal(self, sig: int, frame: FrameType | None) -> None:
        if self.signalled_at is None:
            self.signalled_at = time.monotonic()
        if self.stopping is not None:
            self.stopping.set()
        if self.should_exit and sig == signal.SIGINT:
            self.force_exit = True
        self.should_exit = True


def _stop(service: MaiSafety, runs: Runs, grace_s: float, signalled_at: float, close: Callable[[], None]) -> int:
    """The drain, within its bound from the signal: the runs get the grace; recording the ends of
    those still going and closing get ``STOP_WITHIN_S`` more, in a thread of their own, so that a
    database that answers nothing (each write waits out its answer bound) cannot hold the process.
    Returns the exit status, or ends the process itself once the bound is reached."""
    runs_until = signalled_at + grace_s
    bound = runs_until + STOP_WITHIN_S
    in_flight = set(runs.running_ids())
    left = runs.drain(max(0.0, runs_until - time.monotonic()))
    ended: set[str] = set()

    def finish() -> None:
        with acting_as(SERVICE_ACTOR):
            for execution_id in left:
                try:
                    service.end_unfinished(execution_id, "service_stopped", f"the service stopped; the run did not end within its {grace_s:g} s grace")
                    ended.add(execution_id)
                except Exception as exc:  # noqa: BLE001 - the next start's recovery records it
                    sys.stderr.write(f"mai-safety: could not end {execution_id} ({type(exc).__name__}: {exc}); the next start recovers it\n")
        runs.drain(max(0.0, min(5.0, bound - time.monotonic())))  # the supervisors see their executions ended and return
        close()

    worker = threading.Thread(target=finish, name="mai-safety-stop", daemon=True)
    worker.start()
    worker.join(max(0.0, bound - time.monotonic()))
    # Left open: a run whose command neither returned nor was ended here, or whose end the ledger refused.
    left_open = sorted((set(runs.running_ids()) - ended) | (in_flight & runs.unrecorded()))
    cut_short = worker.is_alive()
    if left_open or cut_short:
        sys.stderr.write(
            f"mai-safety: stopped {time.monotonic() - signalled_at:.1f} s after the signal (--grace {grace_s:g} s + {STOP_WITHIN_S:g} s) "
            f"and left {len(left_open)} execution(s) open: the ledger did not let it record how they ended"
            f"{' or finish closing' if cut_short else ''}; the next start recovers them"
            f"{': ' + ', '.join(left_open) if left_open else ''}\n"
        )
    status = EXIT_UNAVAILABLE if left_open or cut_short else 0
    if status:
        # A thread may still wait on the database (the stop's, or a request's: those are not daemons),
        # and an interpreter's orderly exit would wait for it: the bound is kept by ending here.
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(status)
    return status
