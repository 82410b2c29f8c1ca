"""Docker's errors, as ours: the one place that says what an engine that does not answer is.

The Docker SDK raises its own errors and lets ``requests``' transport errors through; the sandbox
maps every one of them that means "the engine did not answer" here, as httpx maps its transport's
errors in one table, and keeps the cause (``raise ... from exc``). Errors that mean something
else at a given call (an image not built, a container already gone) are caught there first.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import docker
import requests

from mai_safety.application.errors import SandboxUnavailable

#: What the SDK raises when the engine, or the connection to it, fails.
DOCKER_ERRORS: tuple[type[BaseException], ...] = (docker.errors.DockerException, requests.exceptions.RequestException)
SETUP_HINT = "start it with `bash scripts/setup.sh` (or `dockerd &`), or set DOCKER_HOST"


def short(exc: BaseException) -> str:
    """An error's first line, at most 200 characters: enough to act on, never a traceback."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


def does_not_answer(exc: BaseException) -> str:
    return f"Docker does not answer ({short(exc)})"


@contextmanager
def engine_answers() -> Iterator[None]:
    """Within: any of DOCKER_ERRORS becomes SandboxUnavailable, saying what to do."""
    try:
        yield
    except DOCKER_ERRORS as exc:
        raise SandboxUnavailable(f"{does_not_answer(exc)}: {SETUP_HINT}") from exc
