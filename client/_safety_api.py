"""``SafetyAPI`` and ``AsyncSafetyAPI``: the design documents' interface (Mai Phase 02) by its own
names, as a thin layer over ``Client`` and ``AsyncClient``: each method is one call of the typed
client, so there is one code path (settings, retries, timeouts, exceptions) and not a second
client. Where each name is answered from every other door: docs/safety-api.md.

    from mai_safety.client import SafetyAPI
    with SafetyAPI("http://127.0.0.1:8750") as safety:       # token: as Client's
        execution = safety.assess_and_execute("print('hello')\\n")
        print(execution.status, execution.stdout)
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from ._client import AsyncClient, Client
from ._files import PolicyArg
from ._models import Assessment, Event, Execution, ServiceStatus


class SafetyAPI:
    """The six methods of the design documents over a ``Client`` (made from ``base_url`` and
    ``Client``'s options, or given as ``client``: then closing it stays the caller's)."""

    def __init__(self, base_url: str | None = None, *, client: Client | None = None, **options: Any) -> None:
        self._owned = client is None
        self.client = client if client is not None else Client(base_url, **options)

    def __enter__(self) -> SafetyAPI:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._owned:
            self.client.close()

    def assess_and_execute(self, code: str, **submission: Any) -> Execution:
        """Assess, record and run if the gate allows; the execution once it has ended or awaits a
        person (HIGH, BLOCKED: ``awaiting_override``). ``submission``: ``Client.run``'s options
        (provenance, limits, network, requirements, task_id, session_id, on_behalf_of, files,
        image, ``revises``: the execution this code revises, idempotency_key, max_wait_s)."""
        return self.client.run(code, **submission)

    def assess_code_only(self, code: str, *, provenance: str = "mai") -> Assessment:
        """The verdict alone (level, decision, findings): nothing runs, nothing is recorded."""
        return self.client.assess(code, provenance=provenance)

    def get_execution_history(self, execution_id: str | None = None, **filters: Any) -> list[Event] | list[dict[str, Any]]:
        """One execution's recorded events in order (with ``execution_id``: its diff against the
        execution it revises is on ``Assessed``); without it, the executions, newest first
        (``Client.executions``' filters: status, level, since, until, submitter, task, limit, page)."""
        if execution_id is not None:
            return self.client.events(execution_id)
        return self.client.executions(**filters)

    def get_security_status(self) -> ServiceStatus:
        """What answers: Docker, the ledger, gVisor's runtime, the projections and the streams."""
        return self.client.status()

    def configure_policies(self, policy: PolicyArg, *, validate_only: bool = False) -> dict[str, Any]:
        """Apply a policy (name to text, or a folder of NAME.yaml and semgrep/NAME.yaml) as the next
        recorded version (role admin); ``validate_only``: check it and record nothing."""
        if validate_only:
            return self.client.validate_policy(policy)
        return self.client.apply_policy(policy)

    def get_audit_report(self, since: str | None = None, until: str | None = None) -> dict[str, Any]:
        """The audit report over whole UTC days (``YYYY-MM-DD``), tied to the ledger's verified head
        (role auditor)."""
        return self.client.report(since, until)


class AsyncSafetyAPI:
    """``SafetyAPI``'s methods, awaited, over an ``AsyncClient``."""

    def __init__(self, base_url: str | None = None, *, client: AsyncClient | None = None, **options: Any) -> None:
        self._owned = client is None
        self.client = client if client is not None else AsyncClient(base_url, **options)

    async def __aenter__(self) -> AsyncSafetyAPI:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owned:
            await self.client.aclose()

    async def assess_and_execute(self, code: str, **submission: Any) -> Execution:
        return await self.client.run(code, **submission)

    async def assess_code_only(self, code: str, *, provenance: str = "mai") -> Assessment:
        return await self.client.assess(code, provenance=provenance)

    async def get_execution_history(self, execution_id: str | None = None, **filters: Any) -> list[Event] | list[dict[str, Any]]:
        if execution_id is not None:
            return await self.client.events(execution_id)
        return await self.client.executions(**filters)

    async def get_security_status(self) -> ServiceStatus:
        return await self.client.status()

    async def configure_policies(self, policy: PolicyArg, *, validate_only: bool = False) -> dict[str, Any]:
        if validate_only:
            return await self.client.validate_policy(policy)
        return await self.client.apply_policy(policy)

    async def get_audit_report(self, since: str | None = None, until: str | None = None) -> dict[str, Any]:
        return await self.client.report(since, until)
