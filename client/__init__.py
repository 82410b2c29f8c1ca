"""A client of ``mai-safety serve`` for Python callers: ``Client`` and ``AsyncClient`` with the same
methods, typed answers, one exception tree. It imports nothing of the service's side (no Docker,
no analyzers, no ledger): only httpx and pydantic.

    from mai_safety.client import Client
    with Client("http://127.0.0.1:8750") as mai:          # token: MAI_SAFETY_TOKEN or a 0600 file
        execution = mai.run("print(6 * 7)\\n", task_id="task-7")
        print(execution.status, execution.stdout)        # completed 42
"""

from ._client import AsyncClient, Client
from ._core import ClientConfigurationError, new_idempotency_key
from ._errors import (
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
from ._models import (
    AWAITING_OVERRIDE,
    FINAL_STATUSES,
    Assessment,
    Event,
    Execution,
    Finding,
    Health,
    Limits,
    PendingExecution,
    ServiceStatus,
    Verification,
)
from ._token import read_token_file

__all__ = [
    "AWAITING_OVERRIDE", "FINAL_STATUSES", "Assessment", "AsyncClient", "Client", "ClientConfigurationError", "Conflict",
    "Event", "Execution", "Finding", "Health", "HostBusy", "InvalidRequest", "Limits", "MaiSafetyClientError",
    "NotAuthenticated", "NotFound", "NotPermitted", "PendingExecution", "ProblemError", "ServerError", "ServiceStatus",
    "ServiceUnavailable", "Timeout", "TokenError", "TooLarge", "TransportError", "Verification", "new_idempotency_key",
    "read_token_file",
]
