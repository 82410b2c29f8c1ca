"""``Client`` and ``AsyncClient``: the same methods, one over ``PlainClient`` (``httpx.Client``), one
over ``httpx.AsyncClient``. Each method builds a ``Call`` (``_core``) and sends it with the retry rule:
connections that never opened are tried again; a request that may have reached the service only
when it is idempotent or a submission carrying its Idempotency-Key (one is made when none is given).
The JSON of each answer is read into the model the call names (``_typed``)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from types import TracebackType
from typing import IO, Any

import httpx

from . import _core
from ._core import ASSESSING, Call, Settings
from ._files import FilesArg, PolicyArg, encoded_files, local_name, policy_files, write_download
from ._errors import NotFound, Timeout
from ._models import Assessment, Event, Execution, Health, Limits, PendingExecution, ServiceStatus, Verification
from ._plain import EXPORT_MAX_BYTES, EXPORT_MAX_S, PlainClient
from ._sessions import AsyncSession, Session, open_session

LimitsArg = Limits | Mapping[str, Any] | None


class _Base:
    def __init__(
        self,
        base_url: str | None = None,
        *,
        token: str | None = None,
        token_file: str | os.PathLike[str] | None = None,
        timeout: float | httpx.Timeout | None = None,
        retries: int = 2,
        backoff_s: float = 0.25,
        allow_insecure: bool = False,
    ) -> None:
        """``base_url``: the argument, else ``MAI_SAFETY_URL``, else http://127.0.0.1:8750.
        ``token``: the argument, ``token_file``, ``MAI_SAFETY_TOKEN``, ``MAI_SAFETY_TOKEN_FILE``,
        or ``$XDG_CONFIG_HOME/mai-safety/token`` (a file must be readable only by its owner).
        ``timeout``: seconds, or an ``httpx.Timeout`` (default 10 s, 90 s to read an answer).
        ``retries``: further attempts after a dropped connection or a 502/504, for requests that
        are safe to repeat. Plain HTTP is refused off loopback unless ``allow_insecure``."""
        self.settings = Settings.build(base_url, token, token_file, timeout, retries, backoff_s, allow_insecure)

    @staticmethod
    def _submit_call(code: str, provenance: str, limits: LimitsArg, network: str, requirements: list[str] | tuple[str, ...] | None,
                     task_id: str | None, session_id: str | None, on_behalf_of: str | None, idempotency_key: str | None,
                     wait_s: float | None, files: FilesArg = None, image: str | None = None, revises: str | None = None) -> Call:
        if limits is not None and not isinstance(limits, Limits):
            limits = Limits.model_validate(dict(limits))
        return _core.submit(
            code, provenance=provenance, limits=limits.model_dump(exclude_none=True) if limits is not None else None, network=network,
            requirements=requirements, task_id=task_id, session_id=session_id, on_behalf_of=on_behalf_of,
            idempotency_key=idempotency_key, wait_s=wait_s, files=encoded_files(files), image=image, revises=revises,
        )


#: The model each call's answer is read into (``Call.reads``).
_MODELS: dict[str, type[Any]] = {
    "execution": Execution, "assessment": Assessment, "status": ServiceStatus, "health": Health, "verification": Verification,
}


#: Calls whose answer is handed over as the service sent it (rows of its read models).
_AS_SENT = frozenset({"executions", "files", "bytes", "pending", "report", "policy", "policy_check", "session"})


def _typed(call: Call, status_code: int, data: Any) -> Any:
    if call.reads in _AS_SENT:
        return data
    try:
        if call.reads == "events":
            return [Event.model_validate(item) for item in data]
        if call.reads == "execution_or_pending":
            return PendingExecution.model_validate(data) if status_code == 202 else Execution.model_validate(data)
        return _MODELS[call.reads].model_validate(data)
    except (ValueError, TypeError) as exc:  # not the shape we know (pydantic's ValidationError is a ValueError)
        raise _core.unreadable(call, status_code, exc) from None


class Client(_Base):
    """A synchronous client of ``mai-safety serve``. Use it as a context manager, or ``close()`` it."""

    def __init__(self, base_url: str | None = None, **options: Any) -> None:
        super().__init__(base_url, **options)
        self._plain = PlainClient(settings=self.settings)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._plain.close()

    def _send(self, call: Call) -> Any:
        return _typed(call, *self._plain.send(call))

    # --- the service -------------------------------------------------------------------------

    def health(self) -> Health:
        """Liveness (no token needed by the service, though the client sends its own)."""
        return self._send(_core.health())

    def status(self) -> ServiceStatus:
        """What answers: Docker, the ledger, gVisor."""
        return self._send(_core.status())

    def verify(self) -> Verification:
        """Both hash chains and every checkpoint (role auditor)."""
        return self._send(_core.verify())

    # --- executions --------------------------------------------------------------------------

    def assess(self, code: str, *, provenance: str = "mai") -> Assessment:
        """The verdict alone: nothing runs, nothing is recorded."""
        return self._send(_core.assess(code, provenance))

    def submit(self, code: str, *, provenance: str = "mai", limits: LimitsArg = None, network: str = "none",
               requirements: list[str] | tuple[str, ...] | None = None, task_id: str | None = None, session_id: str | None = None,
               on_behalf_of: str | None = None, idempotency_key: str | None = None, wait_s: float | None = None,
               files: FilesArg = None, image: str | None = None, revises: str | None = None) -> Execution | PendingExecution:
        """Assess, record and run if the gate allows. The answer is the execution (HIGH and BLOCKED
        code: ``awaiting_override``), or a ``PendingExecution`` when the server's wait ended first.
        ``files``: name to bytes (or to a path), placed in the run's working directory.
        ``revises``: the id of the execution this code revises (a diff against its code is recorded)."""
        return self._send(self._submit_call(code, provenance, limits, network, requirements, task_id, session_id, on_behalf_of, idempotency_key, wait_s, files, image, revises))

    def run(self, code: str, *, provenance: str = "mai", limits: LimitsArg = None, network: str = "none",
            requirements: list[str] | tuple[str, ...] | None = None, task_id: str | None = None, session_id: str | None = None,
            on_behalf_of: str | None = None, idempotency_key: str | None = None, max_wait_s: float = 600.0,
            poll_s: float = 0.5, files: FilesArg = None, image: str | None = None, revises: str | None = None) -> Execution:
        """``submit``, then wait until the execution has ended or awaits a person (``awaiting_override``)."""
        first = self.submit(code, provenance=provenance, limits=limits, network=network, requirements=requirements, task_id=task_id,
                            session_id=session_id, on_behalf_of=on_behalf_of, idempotency_key=idempotency_key, files=files, image=image,
                            revises=revises)
        return self.wait(first.execution_id, max_wait_s=max_wait_s, poll_s=poll_s, first=first)

    def wait(self, execution_id: str, *, max_wait_s: float = 600.0, poll_s: float = 0.5,
             first: Execution | PendingExecution | None = None) -> Execution:
        """Read the execution until it has ended or awaits a person; ``Timeout`` past ``max_wait_s``."""
        deadline = time.monotonic() + max_wait_s
        current = first
        while not (isinstance(current, Execution) and (current.is_final or current.awaiting_override)):
            if current is not None:
                if time.monotonic() >= deadline:
                    raise Timeout(f"execution {execution_id} had not ended after {max_wait_s:g} s (status {current.status})")
                time.sleep(poll_s)
            try:
                current = self.get(execution_id)
            except NotFound:
                if not (isinstance(current, PendingExecution) and current.status == ASSESSING):
                    raise
                # A 202 while assessing: the execution is recorded once its assessment ends.
        return current

    def get(self, execution_id: str) -> Execution | PendingExecution:
        """The execution; a ``PendingExecution`` (``assessing``) while its assessment runs."""
        return self._send(_core.get(execution_id))

    def events(self, execution_id: str) -> list[Event]:
        """The execution's events in order, each with its actor and ledger position."""
        return self._send(_core.events(execution_id))

    def download(self, execution_id: str, name: str, path: str | os.PathLike[str] | None = None, *, overwrite: bool = False) -> bytes:
        """One of ``execution.files_out``'s bytes; with ``path``, also written there (an existing
        file is kept, FileExistsError, unless ``overwrite``; a link there is never followed)."""
        return self._plain.download(execution_id, name, path, overwrite=overwrite)

    def executions(self, **filters: Any) -> list[dict[str, Any]]:
        """Executions, newest first, as rows of the service's view (a submitter's token sees its
        own): ``status``, ``level``, ``since``, ``until``, ``submitter``, ``task``, ``limit``, ``page``."""
        rows: list[dict[str, Any]] = self._send(_core.executions(filters))
        return rows

    def stream(self, execution_id: str) -> Iterator[tuple[str, Any]]:
        """The execution's server-sent events as (event, data), as they come: ``state``,
        ``recorded``, ``sample``, ``output``, ``dropped``, then ``end`` with the report."""
        return self._plain.stream(execution_id)

    # --- audit and policies ------------------------------------------------------------------

    def pending(self) -> list[dict[str, Any]]:
        """What waits for a confirmation or an override, its findings and the seconds left."""
        rows: list[dict[str, Any]] = self._send(_core.pending())
        return rows

    def report(self, since: str | None = None, until: str | None = None) -> dict[str, Any]:
        """The audit report over whole UTC days (``YYYY-MM-DD``), tied to the ledger's head (role auditor)."""
        answer: dict[str, Any] = self._send(_core.report(since, until))
        return answer

    def export(self, out: IO[bytes], *, execution: str | None = None, from_position: int | None = None, to_position: int | None = None,
               without_file_bytes: bool = False, max_bytes: int = EXPORT_MAX_BYTES, max_s: float = EXPORT_MAX_S) -> int:
        """Write the ledger's bundle (a range, or one execution) to ``out`` as it comes (role auditor);
        the bytes written. Check it anywhere with ``mai-safety audit verify --bundle FILE``."""
        return self._plain.export(out, execution=execution, from_position=from_position, to_position=to_position,
                                  max_bytes=max_bytes, max_s=max_s, without_file_bytes=without_file_bytes)

    def policy(self) -> dict[str, Any]:
        """The policy version in force (0: the shipped folder) and its files' SHA-256."""
        answer: dict[str, Any] = self._send(_core.policy_current())
        return answer

    def validate_policy(self, policy: PolicyArg) -> dict[str, Any]:
        """Check a policy (name to text, or a folder) as an apply would (role admin); nothing is recorded."""
        answer: dict[str, Any] = self._send(_core.policy_validate(policy_files(policy)))
        return answer

    def apply_policy(self, policy: PolicyArg) -> dict[str, Any]:
        """Validate a policy, then record it as the next version (role admin). Not retried."""
        answer: dict[str, Any] = self._send(_core.policy_apply(policy_files(policy)))
        return answer

    # --- the gate (roles approver and security-officer; never the submitter) -----------------

    def confirm(self, execution_id: str, explanation: str = "", *, on_behalf_of: str | None = None,
                wait_s: float | None = None) -> Execution | PendingExecution:
        """Confirm HIGH code, then run it. Not retried: it runs code."""
        return self._send(_core.confirm(execution_id, explanation, on_behalf_of, wait_s))

    def override(self, execution_id: str, explanation: str, *, on_behalf_of: str | None = None,
                 wait_s: float | None = None) -> Execution | PendingExecution:
        """Override BLOCKED code with a written explanation, then run it. Not retried."""
        return self._send(_core.override(execution_id, explanation, on_behalf_of, wait_s))

    def deny(self, execution_id: str, reason: str = "") -> Execution:
        return self._send(_core.deny(execution_id, reason))

    def cancel(self, execution_id: str) -> Execution:
        return self._send(_core.cancel(execution_id))

    def session(self, *, image: str | None = None, idle_s: float | None = None, lifetime_s: float | None = None,
                max_cells: int | None = None, cell_timeout_s: float | None = None, cell_cpu_s: float | None = None,
                network: str | None = None, total_cpu_s: float | None = None) -> Session:
        """Open a session (a live interpreter that keeps its state; client._sessions): use it in a
        ``with`` to end it on leaving. ``network``: only ``none`` is granted (a session's cells are
        untrusted code); ``deps`` raises the service's refusal (422, field network)."""
        return Session(self, self._send(open_session(image, idle_s, lifetime_s, max_cells, cell_timeout_s, cell_cpu_s, network, total_cpu_s)))


class AsyncClient(_Base):
    """The asynchronous twin of ``Client``: the same methods, awaited. ``async with`` or ``aclose()``."""

    def __init__(self, base_url: str | None = None, **options: Any) -> None:
        super().__init__(base_url, **options)
        self._http = httpx.AsyncClient(**_core.http_options(self.settings))

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(self, call: Call) -> Any:
        attempt = 0
        while True:
            try:
                response = await self._http.send(_core.request_for(self._http, call))
            except httpx.TransportError as error:
                if not _core.should_retry(call, attempt, self.settings, error=error):
                    raise _core.transport_error(call, error, attempt + 1) from None
            else:
                if not _core.should_retry(call, attempt, self.settings, response=response):
                    return _typed(call, *_core.answer(call, response))
            await asyncio.sleep(_core.delay(attempt, self.settings))
            attempt += 1

    async def health(self) -> Health:
        return await self._send(_core.health())

    async def status(self) -> ServiceStatus:
        return await self._send(_core.status())

    async def verify(self) -> Verification:
        return await self._send(_core.verify())

    async def assess(self, code: str, *, provenance: str = "mai") -> Assessment:
        return await self._send(_core.assess(code, provenance))

    async def submit(self, code: str, *, provenance: str = "mai", limits: LimitsArg = None, network: str = "none",
                     requirements: list[str] | tuple[str, ...] | None = None, task_id: str | None = None, session_id: str | None = None,
                     on_behalf_of: str | None = None, idempotency_key: str | None = None,
                     wait_s: float | None = None, files: FilesArg = None, image: str | None = None,
                     revises: str | None = None) -> Execution | PendingExecution:
        return await self._send(self._submit_call(code, provenance, limits, network, requirements, task_id, session_id, on_behalf_of, idempotency_key, wait_s, files, image, revises))

    async def run(self, code: str, *, provenance: str = "mai", limits: LimitsArg = None, network: str = "none",
                  requirements: list[str] | tuple[str, ...] | None = None, task_id: str | None = None, session_id: str | None = None,
                  on_behalf_of: str | None = None, idempotency_key: str | None = None, max_wait_s: float = 600.0,
                  poll_s: float = 0.5, files: FilesArg = None, image: str | None = None, revises: str | None = None) -> Execution:
        first = await self.submit(code, provenance=provenance, limits=limits, network=network, requirements=requirements, task_id=task_id,
                                  session_id=session_id, on_behalf_of=on_behalf_of, idempotency_key=idempotency_key, files=files, image=image,
                                  revises=revises)
        return await self.wait(first.execution_id, max_wait_s=max_wait_s, poll_s=poll_s, first=first)

    async def wait(self, execution_id: str, *, max_wait_s: float = 600.0, poll_s: float = 0.5,
                   first: Execution | PendingExecution | None = None) -> Execution:
        deadline = time.monotonic() + max_wait_s
        current = first
        while not (isinstance(current, Execution) and (current.is_final or current.awaiting_override)):
            if current is not None:
                if time.monotonic() >= deadline:
                    raise Timeout(f"execution {execution_id} had not ended after {max_wait_s:g} s (status {current.status})")
                await asyncio.sleep(poll_s)
            try:
                current = await self.get(execution_id)
            except NotFound:
                if not (isinstance(current, PendingExecution) and current.status == ASSESSING):
                    raise
                # A 202 while assessing: the execution is recorded once its assessment ends.
        return current

    async def get(self, execution_id: str) -> Execution | PendingExecution:
        """The execution; a ``PendingExecution`` (``assessing``) while its assessment runs."""
        return await self._send(_core.get(execution_id))

    async def events(self, execution_id: str) -> list[Event]:
        return await self._send(_core.events(execution_id))

    async def download(self, execution_id: str, name: str, path: str | os.PathLike[str] | None = None, *, overwrite: bool = False) -> bytes:
        data: bytes = await self._send(_core.file(execution_id, local_name(name)))
        if path is not None:
            write_download(path, data, overwrite=overwrite)
        return data

    async def executions(self, **filters: Any) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = await self._send(_core.executions(filters))
        return rows

    async def stream(self, execution_id: str) -> AsyncIterator[tuple[str, Any]]:
        call = _core.stream(execution_id)
        try:
            async with self._http.stream(call.method, call.path, headers=call.headers) as response:
                if response.status_code >= 400:
                    await response.aread()
                    raise _core.problem_of(response)
                lines: list[str] = []
                async for line in response.aiter_lines():
                    lines.append(line)
                    if line == "":
                        for each in _core.server_sent_events(lines):
                            yield each
                        lines = []
        except httpx.TransportError as error:
            raise _core.transport_error(call, error, 1) from None

    async def pending(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = await self._send(_core.pending())
        return rows

    async def report(self, since: str | None = None, until: str | None = None) -> dict[str, Any]:
        answer: dict[str, Any] = await self._send(_core.report(since, until))
        return answer

    async def export(self, out: IO[bytes], *, execution: str | None = None, from_position: int | None = None,
                     to_position: int | None = None, without_file_bytes: bool = False, max_bytes: int = EXPORT_MAX_BYTES,
                     max_s: float = EXPORT_MAX_S) -> int:
        call = _core.export(execution, from_position, to_position, without_file_bytes)
        sink = _core.BundleSink(call, out, max_bytes, max_s)
        try:
            async with self._http.stream(call.method, call.path, params=call.params, headers=call.headers) as response:
                if response.status_code >= 400:
                    await response.aread()
                    raise _core.problem_of(response)
                async for chunk in response.aiter_bytes():
                    sink.write(chunk)
        except httpx.TransportError as error:
            raise _core.transport_error(call, error, 1) from None
        return sink.finish()

    async def policy(self) -> dict[str, Any]:
        answer: dict[str, Any] = await self._send(_core.policy_current())
        return answer

    async def validate_policy(self, policy: PolicyArg) -> dict[str, Any]:
        answer: dict[str, Any] = await self._send(_core.policy_validate(policy_files(policy)))
        return answer

    async def apply_policy(self, policy: PolicyArg) -> dict[str, Any]:
        answer: dict[str, Any] = await self._send(_core.policy_apply(policy_files(policy)))
        return answer

    async def confirm(self, execution_id: str, explanation: str = "", *, on_behalf_of: str | None = None,
                      wait_s: float | None = None) -> Execution | PendingExecution:
        return await self._send(_core.confirm(execution_id, explanation, on_behalf_of, wait_s))

    async def override(self, execution_id: str, explanation: str, *, on_behalf_of: str | None = None,
                       wait_s: float | None = None) -> Execution | PendingExecution:
        return await self._send(_core.override(execution_id, explanation, on_behalf_of, wait_s))

    async def deny(self, execution_id: str, reason: str = "") -> Execution:
        return await self._send(_core.deny(execution_id, reason))

    async def cancel(self, execution_id: str) -> Execution:
        return await self._send(_core.cancel(execution_id))

    def session(self, *, image: str | None = None, idle_s: float | None = None, lifetime_s: float | None = None,
                max_cells: int | None = None, cell_timeout_s: float | None = None, cell_cpu_s: float | None = None,
                network: str | None = None, total_cpu_s: float | None = None) -> AsyncSession:
        """``async with client.session() as session``: opened on entering, ended on leaving."""
        return AsyncSession(self, {"image": image, "idle_s": idle_s, "lifetime_s": lifetime_s, "max_cells": max_cells,
                                   "cell_timeout_s": cell_timeout_s, "cell_cpu_s": cell_cpu_s, "network": network,
                                   "total_cpu_s": total_cpu_s})
