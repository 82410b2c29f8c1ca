"""One call run on a thread of its own while the caller does something else, its outcome (value
or error) taken when, and if, the caller needs it."""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")


def run_aside(work: Callable[[], T]) -> Future[T]:
    """Start ``work`` now, in the caller's context (its actor and principal); ``.result()`` waits
    for it and raises what it raised. An outcome nobody asks for is dropped."""
    future: Future[T] = Future()
    context = contextvars.copy_context()

    def body() -> None:
        try:
            future.set_result(context.run(work))
        except BaseException as exc:  # noqa: BLE001 - handed to whoever asks for the result
            future.set_exception(exc)

    threading.Thread(target=body, name="mai-safety-aside", daemon=True).start()
    return future
