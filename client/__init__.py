"""A client of ``mai-safety serve`` for Python callers: ``Client`` and ``AsyncClient`` with the same
methods, typed answers, one exception tree; ``PlainClient`` makes the same calls answering with the
service's JSON as it is. It imports nothing of the service's side (no Docker, no analyzers, no
ledger): only httpx, and pydantic for the typed answers.

    from mai_safety.client import Client
    with Client("http://127.0.0.1:8750") as mai:          # token: MAI_SAFETY_TOKEN or a 0600 file
        execution = mai.run("print(6 * 7)\\n", task_id="task-7")
        print(execution.status, execution.stdout)        # completed 42

``SafetyAPI`` (and ``AsyncSafetyAPI``) name the same calls as the design documents do:
``assess_and_execute``, ``assess_code_only``, ``get_execution_history``, ``get_security_status``,
``configure_policies``, ``get_audit_report`` (docs/safety-api.md).

Each name is imported when first used (PEP 562), so that a process that needs only the plain
client (the command line, started for one call) never imports pydantic or asyncio.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._client import AsyncClient, Client
    from ._core import AWAITING_OVERRIDE, FINAL_STATUSES, ClientConfigurationError, new_idempotency_key
    from ._errors import (
        AnswerTooLarge,
        Conflict,
        HostBusy,
        InvalidRequest,
        MaiSafetyClientError,
        NotAuthenticated,
        NotFound,
        NotPermitted,
        ProblemError,
        ServerError,
        ServiceUnavailable,
        Timeout,
        TokenError,
        TooLarge,
        TransportError,
    )
    from ._models import Assessment, Event, Execution, FileInfo, Finding, Health, Limits, PendingExecution, ServiceStatus, Verification
    from ._plain import PlainClient, Reply
    from ._safety_api import AsyncSafetyAPI, SafetyAPI
    from ._token import read_token_file

#: Where each public name lives.
_MODULES = {
    "._client": ("AsyncClient", "Client"),
    "._core": ("AWAITING_OVERRIDE", "FINAL_STATUSES", "ClientConfigurationError", "new_idempotency_key"),
    "._errors": (
        "AnswerTooLarge", "Conflict", "HostBusy", "InvalidRequest", "MaiSafetyClientError", "NotAuthenticated", "NotFound", "NotPermitted",
        "ProblemError", "ServerError", "ServiceUnavailable", "Timeout", "TokenError", "TooLarge", "TransportError",
    ),
    "._models": ("Assessment", "Event", "Execution", "FileInfo", "Finding", "Health", "Limits", "PendingExecution", "ServiceStatus", "Verification"),
    "._plain": ("PlainClient", "Reply"),
    "._safety_api": ("AsyncSafetyAPI", "SafetyAPI"),
    "._token": ("read_token_file",),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "AWAITING_OVERRIDE", "FINAL_STATUSES", "AnswerTooLarge", "Assessment", "AsyncClient", "AsyncSafetyAPI", "Client", "ClientConfigurationError", "Conflict",
    "Event", "Execution", "FileInfo", "Finding", "Health", "HostBusy", "InvalidRequest", "Limits", "MaiSafetyClientError",
    "NotAuthenticated", "NotFound", "NotPermitted", "PendingExecution", "PlainClient", "ProblemError", "Reply", "SafetyAPI", "ServerError",
    "ServiceStatus", "ServiceUnavailable", "Timeout", "TokenError", "TooLarge", "TransportError", "Verification",
    "new_idempotency_key", "read_token_file",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
