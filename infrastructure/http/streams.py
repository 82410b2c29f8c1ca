"""``GET /v1/executions/{id}/stream``: an execution as server-sent events, and the limits on how
many are open.

Events, each ``data`` one JSON object:
  ``state``     first: {"execution_id", "status"} as the stream opens; a stream its submitter
                opens while the execution is still being assessed (nothing recorded yet) says
                ``assessing``, then ``state`` again once it is recorded, and goes on as any other
  ``recorded``  an event recorded on the execution other than a sample or its end
                (``Overridden``, ``Started``, ...): {"event", "version", "timestamp", "actor"}
  ``sample``    a recorded resource sample: {"version", "timestamp", "sample"}
  ``output``    the program's output as it comes, while this server runs it: {"stream", "text"}
  ``dropped``   the reader fell behind (or came late) and missed this much output: {"bytes"}
  ``end``       the execution ended: its report (with the whole output as recorded); the
                stream then closes
  ``closing``   the service is stopping, or the stream's token was revoked, or the submission
                was refused before anything was recorded ({"detail", "status": the problem's
                HTTP status}): the stream closes without an end
Recorded events carry their version as the event's ``id``. Nothing a stream does is recorded.

Samples and the end are read from the ledger, so a stream on any server of one ledger sees them;
output as it comes only reaches a stream on the server that runs the execution (elsewhere it
arrives whole, on ``end``).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from mai_safety.application.watch import ExecutionWatch
from mai_safety.domain.errors import MaiSafetyError

from .problems import TooManyStreams, problem_for
from .submissions import ASSESSING, PendingSubmission

#: How often a stream looks for new recorded events, and for new output.
LEDGER_EVERY_S = 0.5
OUTPUT_EVERY_S = 0.1
#: A comment line this often keeps proxies from closing a quiet stream and finds a gone reader.
KEEPALIVE_S = 15.0
#: How often a stream asks whether its token still holds: a revocation ends it within this.
TOKEN_EVERY_S = 2.0


class StreamSlots:
    """At most ``total`` open streams on this server, and ``per_principal`` for any one principal."""

    def __init__(self, total: int, per_principal: int) -> None:
        self.total = total
        self.per_principal = per_principal
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def take(self, principal: str) -> None:
        with self._lock:
            if sum(self._open.values()) >= self.total:
                raise TooManyStreams(f"this server has its {self.total} event streams open: try again later")
            if self._open[principal] >= self.per_principal:
                raise TooManyStreams(
                    f"{principal} has {self.per_principal} event streams open, as many as one principal may: close one first"
                )
            self._open[principal] += 1

    def give_back(self, principal: str) -> None:
        with self._lock:
            self._open[principal] -= 1
            if self._open[principal] <= 0:
                del self._open[principal]

    def count(self) -> int:
        with self._lock:
            return sum(self._open.values())


class EventStream(StreamingResponse):
    """A streaming response that runs ``on_close`` however it ends: finished, the reader gone
    (even before the first event), or the server stopping."""

    media_type = "text/event-stream"

    def __init__(self, content: AsyncIterator[str], on_close: Callable[[], None]) -> None:
        super().__init__(
            content,
            media_type=self.media_type,
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        self._on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._on_close()


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'), default=str)}\n\n"


async def follow(watch: ExecutionWatch, stopping: threading.Event) -> AsyncIterator[str]:
    """The stream's events, until the execution's end (or the service stops)."""
    status = await run_in_threadpool(watch.status)
    yield sse("state", {"execution_id": str(watch.execution_id), "status": status})
    version = 0
    ended = False
    next_ledger = 0.0
    next_token = time.monotonic() + TOKEN_EVERY_S
    last_sent = time.monotonic()
    while True:
        if stopping.is_set():
            yield sse("closing", {"detail": "the service is stopping: read the execution again, here or on another server"})
            return
        now = time.monotonic()
        if now >= next_token:
            next_token = now + TOKEN_EVERY_S
            if not await run_in_threadpool(watch.token_active):
                yield sse("closing", {"detail": "the token this stream was opened with is no longer valid"})
                return
        if now >= next_ledger:
            next_ledger = now + LEDGER_EVERY_S
            while True:
                events = await run_in_threadpool(watch.recorded_after, version)
                for event in events:
                    last_sent = now
                    version = event["version"]
                    name = event["event"]
                    if name == "ResourceSampled":
                        yield sse("sample", {"version": version, "timestamp": event["timestamp"], "sample": event.get("sample")}, version)
                    elif name in ExecutionWatch.FINAL_EVENTS:
                        ended = True
                    else:
                        yield sse("recorded", {"event": name, "version": version, "timestamp": event["timestamp"], "actor": event.get("actor")}, version)
                if len(events) < 200 or ended:
                    break
        # All the output was captured before the end was recorded: take it all before the end.
        while watch.output is not None:
            taken = watch.output.take()
            if taken.missed:
                yield sse("dropped", {"bytes": taken.missed, "detail": "output missed by this stream; the whole output is on end"})
            for stream, text in taken.chunks:
                yield sse("output", {"stream": stream, "text": text})
                last_sent = time.monotonic()
            if not taken.chunks or not ended:
                break
        if ended:
            final = await run_in_threadpool(watch.report)
            yield sse("end", final.to_dict(), version)
            return
        if time.monotonic() - last_sent >= KEEPALIVE_S:
            yield ": keep-alive\n\n"
            last_sent = time.monotonic()
        await asyncio.sleep(OUTPUT_EVERY_S)


async def follow_submission(
    execution_id: str,
    pending: PendingSubmission,
    open_watch: Callable[[], ExecutionWatch | None],
    opened: Callable[[ExecutionWatch], None],
    stopping: threading.Event,
) -> AsyncIterator[str]:
    """A stream its submitter opened while the execution is assessed: ``state`` says
    ``assessing``; once the ledger holds the execution the stream goes on as ``follow``'s (its
    ``state`` first). A submission that failed before it was recorded ends it with ``closing``."""
    yield sse("state", {"execution_id": execution_id, "status": ASSESSING})
    while True:
        if stopping.is_set():
            yield sse("closing", {"detail": "the service is stopping: read the execution again, here or on another server"})
            return
        ended = pending.done()  # asked before the ledger is: a command that ended well has recorded it
        watch = await run_in_threadpool(open_watch)
        if watch is not None:
            opened(watch)
            async for part in follow(watch, stopping):
                yield part
            return
        if ended:
            yield sse("closing", _refusal(pending.failure()))
            return
        await asyncio.sleep(LEDGER_EVERY_S)


def _refusal(failure: BaseException | None) -> dict[str, Any]:
    if isinstance(failure, MaiSafetyError):
        answer = problem_for(failure)
        return {"detail": f"the submission was refused before anything was recorded: {failure.message}", "status": answer.status_code}
    what = type(failure).__name__ if failure is not None else "it was not recorded"
    return {"detail": f"the submission ended before anything was recorded ({what}): read the execution again", "status": 500}
