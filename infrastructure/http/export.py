"""``GET /v1/audit/export``: the bundle ``mai-safety audit export`` writes, streamed as it is
written. The export writes to a file-like object in a thread of its own; what it writes goes to
the reader through a small bounded queue (at most ``_QUEUE`` pieces of ``_PIECE`` characters
held), so a slow reader slows the export down instead of growing the service, and a reader that
leaves stops it. The answer's status is decided by the first piece: an error before any byte is
written (no right, an unknown execution, the ledger down) is a problem as usual; one after the
first byte can only cut the answer short (no final chunk), which a client sees as incomplete.
"""

from __future__ import annotations

import contextvars
import io
import logging
import queue
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any, TextIO

import anyio.to_thread
from starlette.responses import StreamingResponse

from mai_safety.application.reports import VerificationReport

_PIECE = 64 * 1024
_QUEUE = 8
_FIRST_PIECE_WITHIN_S = 120.0
_DONE = object()

log = logging.getLogger("mai_safety.http")


class _ReaderGone(Exception):
    pass


class _Pipe(io.TextIOBase):
    """The export's ``out``: gathers what is written into pieces and hands them on, waiting while
    the reader is behind, and giving up as soon as the reader has gone."""

    def __init__(self, pieces: queue.Queue[Any], gone: threading.Event) -> None:
        self._pieces = pieces
        self._gone = gone
        self._held: list[str] = []
        self._size = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._held.append(text)
        self._size += len(text)
        if self._size >= _PIECE:
            self.flush()
        return len(text)

    def flush(self) -> None:
        if self._held:
            piece, self._held, self._size = "".join(self._held), [], 0
            put(self._pieces, piece, self._gone)


def put(pieces: queue.Queue[Any], item: Any, gone: threading.Event) -> None:
    while True:
        if gone.is_set():
            raise _ReaderGone()
        try:
            pieces.put(item, timeout=0.5)
            return
        except queue.Full:
            continue


def take(pieces: queue.Queue[Any], gone: threading.Event) -> Any:
    """The next piece; a reader that has gone (its getter abandoned) ends within half a second,
    so no worker thread is left waiting for a piece that will never come."""
    while True:
        try:
            return pieces.get(timeout=0.5)
        except queue.Empty:
            if gone.is_set():
                return _DONE


def stream_export(write: Callable[[TextIO], VerificationReport], filename: str) -> StreamingResponse:
    """Start the export; wait for its first piece (or its error, raised here); answer with the rest."""
    pieces: queue.Queue[Any] = queue.Queue(_QUEUE)
    gone = threading.Event()
    context = contextvars.copy_context()

    def work() -> None:
        pipe = _Pipe(pieces, gone)
        try:
            report = context.run(write, pipe)
            pipe.flush()
            if not report.intact:
                log.warning("an exported bundle holds a TAMPERED ledger (%d problem(s))", len(report.problems))
            put(pieces, _DONE, gone)
        except _ReaderGone:
            return
        except BaseException as exc:  # noqa: BLE001 - handed to the reader
            try:
                put(pieces, exc, gone)
            except _ReaderGone:
                return

    threading.Thread(target=work, name="mai-safety-export", daemon=True).start()
    try:
        first = pieces.get(timeout=_FIRST_PIECE_WITHIN_S)
    except queue.Empty:
        gone.set()
        raise TimeoutError("the export wrote nothing in time") from None
    if isinstance(first, BaseException):
        gone.set()
        raise first

    async def rest() -> AsyncIterator[str]:
        try:
            item = first
            while item is not _DONE:
                if isinstance(item, BaseException):
                    log.error("the export failed after it began (%s: %s); the answer is cut short", type(item).__name__, item)
                    raise item
                yield item
                item = await anyio.to_thread.run_sync(take, pieces, gone, abandon_on_cancel=True)
        finally:
            gone.set()

    return StreamingResponse(
        rest(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )
