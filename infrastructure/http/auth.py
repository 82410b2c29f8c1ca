"""Who a request is: its bearer token becomes a ``Principal`` through the application's
``authenticate``, and ``as_principal`` is the one place that principal becomes the application's
actor (domain.access). Every router depends on ``Caller``."""

# No ``from __future__ import annotations``: FastAPI reads ``Caller`` at runtime.

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.access import Principal

_bearer = HTTPBearer(auto_error=False, description="a token from `mai-safety tokens create`")


def principal(request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> Principal:
    """The request's principal: its bearer token, through the application's ``authenticate``."""
    service: MaiSafety = request.app.state.service
    return service.authenticate(credentials.credentials if credentials else None)


Caller = Annotated[Principal, Depends(principal)]


def service_of(request: Request) -> MaiSafety:
    service: MaiSafety = request.app.state.service
    return service


@contextmanager
def as_principal(who: Principal) -> Iterator[None]:
    """The one place a request's principal becomes the application's actor (domain.access)."""
    with acting_as(who.name, who):
        yield
