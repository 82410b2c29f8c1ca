"""Docker's errors, as ours: the one place where the engine's and its transport's errors are read.

The Docker SDK raises its own errors and lets ``requests``' transport errors through. The sandbox
maps them here, as httpx maps its transport's errors in one table, and keeps the cause
(``raise ... from exc``); no other module of the sandbox names ``docker.errors`` or ``requests``.
Two ways through:

* ``engine_answers()`` and ``refused(what)``: the call must succeed; an engine error becomes
  ``SandboxUnavailable`` saying what failed and what to do;
* ``BestEffort()``: the step may fail (a container already gone, a log no longer there); the error
  is kept in ``attempt.error`` and the caller says what stands instead.

What the engine raises, and what it becomes::

    docker.errors.DockerException + requests.RequestException     DOCKER_ERRORS
    ├── docker.errors.ImageNotFound ........ SandboxUnavailable: an image is not built (build-images.sh)
    ├── docker.errors.NotFound ............. BestEffort.gone: removed already; remove_if_present: False
    ├── APIError "removal ... in progress" . remove_if_present: False (another run removes it)
    └── any other (refused, timed out, ...)  SandboxUnavailable: Docker does not answer / {what} (...)

    MaiSafetyError
    ├── application.errors.SandboxUnavailable   the sandbox cannot run this now (the port's error)
    └── domain.limits.HostBusy                  no room on the host now (admission, not Docker)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

import docker
import requests

from mai_safety.application.errors import SandboxUnavailable

#: What the SDK raises when the engine, or the connection to it, fails.
DOCKER_ERRORS: tuple[type[BaseException], ...] = (docker.errors.DockerException, requests.exceptions.RequestException)
SETUP_HINT = "start it with `bash scripts/setup.sh` (or `dockerd &`), or set DOCKER_HOST"
BUILD_HINT = "run `bash scripts/build-images.sh`"


def short(exc: BaseException) -> str:
    """An error's first line, at most 200 characters: enough to act on, never a traceback."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


def does_not_answer(exc: BaseException) -> str:
    return f"Docker does not answer ({short(exc)})"


@contextmanager
def engine_answers(image: str | None = None) -> Iterator[None]:
    """Within: any of DOCKER_ERRORS becomes SandboxUnavailable, saying what to do. ``image``: the
    image the call reads, named when it is not built."""
    try:
        yield
    except docker.errors.ImageNotFound as exc:
        named = f"sandbox image {image}" if image else f"an image ({short(exc)})"
        raise SandboxUnavailable(f"{named} is not built: {BUILD_HINT}") from exc
    except DOCKER_ERRORS as exc:
        raise SandboxUnavailable(f"{does_not_answer(exc)}: {SETUP_HINT}") from exc


@contextmanager
def refused(what: str, *, also: tuple[type[BaseException], ...] = (OSError,)) -> Iterator[None]:
    """Within: an image not built, or any engine error (and any of ``also``: the host's side of
    the same step), becomes SandboxUnavailable saying ``what`` failed."""
    try:
        yield
    except docker.errors.ImageNotFound as exc:
        raise SandboxUnavailable(f"an image is not built ({short(exc)}): {BUILD_HINT}") from exc
    except (*also, *DOCKER_ERRORS) as exc:
        raise SandboxUnavailable(f"{what} ({short(exc)})") from exc


class BestEffort:
    """Within: an engine error (and any of ``also``) is dropped and kept in ``error``, for steps
    whose failure has a fallback that the caller states."""

    def __init__(self, *also: type[BaseException]) -> None:
        self.also = also
        self.error: BaseException | None = None

    def __enter__(self) -> BestEffort:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> bool:
        if error is not None and isinstance(error, (*DOCKER_ERRORS, *self.also)):
            self.error = error
            return True
        return False

    @property
    def failed(self) -> bool:
        return self.error is not None

    @property
    def gone(self) -> bool:
        """Whether the engine said the container (or network) does not exist."""
        return isinstance(self.error, docker.errors.NotFound)


def remove_if_present(item: Any, **options: Any) -> bool:
    """Remove a container or network; False if it is gone already or another run removes it now.
    Any other refusal is the engine's failure: SandboxUnavailable."""
    try:
        item.remove(**options)
        return True
    except docker.errors.NotFound:
        return False
    except docker.errors.APIError as exc:
        if "removal" in str(exc) or "already in progress" in str(exc):
            return False
        raise SandboxUnavailable(f"{does_not_answer(exc)}: {SETUP_HINT}") from exc
    except DOCKER_ERRORS as exc:
        raise SandboxUnavailable(f"{does_not_answer(exc)}: {SETUP_HINT}") from exc
