"""``PlainClient``: the synchronous calls of ``Client`` answering with the service's JSON as it is
(dicts and lists), without models. It is the transport ``Client`` reads its models from, and what
the command line uses: a process that starts for one call does not import pydantic (``_typed``).
It also follows an execution's event stream (``stream``)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from types import TracebackType
from typing import IO, Any, NamedTuple, cast

import httpx

from . import _core
from ._core import ASSESSING, AWAITING_OVERRIDE, FINAL_STATUSES, Call, Settings
from ._errors import NotFound, Timeout
from ._files import FilesArg, PolicyArg, encoded_files, local_name, policy_files, write_download

#: How much of an exported bundle ``export`` reads at most, and for how long (each read also has
#: the client's own read timeout): a ledger's whole bundle can be large; a range or one execution
#: is the way to a smaller one.
EXPORT_MAX_BYTES = 4 * 1024**3
EXPORT_MAX_S = 3600.0


class Reply(NamedTuple):
    """An answer that may come before the end: ``pending`` (a 202) when the server's wait ended
    first and ``data`` is only ``{"execution_id", "status"}``."""

    status_code: int
    data: dict[str, Any]

    @property
    def pending(self) -> bool:
        return self.status_code == 202


def has_ended_or_waits(execution: Mapping[str, Any]) -> bool:
    return execution.get("status") in FINAL_STATUSES or execution.get("status") == AWAITING_OVERRIDE


class PlainClient:
    """A synchronous client of ``mai-safety serve`` whose answers are plain JSON data. The same
    settings, retries, timeouts and exception tree as ``Client``."""

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
        settings: Settings | None = None,
    ) -> None:
        """The arguments are ``Client``'s (or ``settings`` already built from them)."""
        self.settings = settings or Settings.build(base_url, token, token_file, timeout, retries, backoff_s, allow_insecure)
        self._http = httpx.Client(**_core.http_options(self.settings))

    def __enter__(self) -> PlainClient:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def send(self, call: Call) -> tuple[int, Any]:
        """The answer's status and JSON, with the retry rule of ``_core``."""
        attempt = 0
        while True:
            try:
                response = self._http.send(_core.request_for(self._http, call))
            except httpx.TransportError as error:
                if not _core.should_retry(call, attempt, self.settings, error=error):
                    raise _core.transport_error(call, error, attempt + 1) from None
            else:
                if not _core.should_retry(call, attempt, self.settings, response=response):
                    return _core.answer(call, response)
            time.sleep(_core.delay(attempt, self.settings))
            attempt += 1

    def _data(self, call: Call) -> Any:
        return self.send(call)[1]


    def _reply(self, call: Call) -> Reply:
        return Reply(*self.send(call))

    def status(self) -> dict[str, Any]:
        return cast("dict[str, Any]", self._data(_core.status()))

    def assess(self, code: str, *, provenance: str = "mai") -> dict[str, Any]:
        return cast("dict[str, Any]", self._data(_core.assess(code, provenance)))

    def submit(self, code: str, *, provenance: str = "mai", limits: Mapping[str, Any] | None = None, network: str = "none",
               requirements: list[str] | tuple[str, ...] | None = None, task_id: str | None = None, session_id: str | None = None,
               on_behalf_of: str | None = None, idempotency_key: str | None = None, wait_s: float | None = None,
               files: FilesArg = None, image: str | None = None, revises: str | None = None) -> Reply:
        """As ``Client.submit``: the execution, or a pending ``Reply`` past the server's wait (``wait_s``)."""
        return self._reply(_core.submit(
            code, provenance=provenance, limits=limits, network=network, requirements=requirements, task_id=task_id,
            session_id=session_id, on_behalf_of=on_behalf_of, idempotency_key=idempotency_key, wait_s=wait_s,
            files=encoded_files(files), image=image, revises=revises,
        ))

    def files(self, execution_id: str) -> dict[str, Any]:
        """``files_in`` and ``files_out``: each file's name, size, SHA-256 (and media type)."""
        return cast("dict[str, Any]", self._data(_core.files(execution_id)))

    def download(self, execution_id: str, name: str, path: str | os.PathLike[str] | None = None, *, overwrite: bool = False) -> bytes:
        """One output file's bytes; with ``path``, also written there (an existing file is kept,
        FileExistsError, unless ``overwrite``)."""
        data = cast(bytes, self._data(_core.file(execution_id, local_name(name))))
        if path is not None:
            write_download(path, data, overwrite=overwrite)
        return data

    def run(self, code: str, *, max_wait_s: float = 600.0, poll_s: float = 0.5, **submission: Any) -> dict[str, Any]:
        """``submit``, then ``wait``: the execution once it has ended or awaits a person."""
        first = self.submit(code, **submission)
        return self.wait(first.data["execution_id"], max_wait_s=max_wait_s, poll_s=poll_s, first=first)

    def wait(self, execution_id: str, *, max_wait_s: float = 600.0, poll_s: float = 0.5, first: Reply | None = None) -> dict[str, Any]:
        """Read the execution until it has ended or awaits a person; ``Timeout`` past ``max_wait_s``."""
        deadline = time.monotonic() + max_wait_s
        current = first
        while current is None or current.pending or not has_ended_or_waits(current.data):
            if current is not None:
                if time.monotonic() >= deadline:
                    raise Timeout(f"execution {execution_id} had not ended after {max_wait_s:g} s (status {current.data.get('status')})")
                time.sleep(poll_s)
            try:
                current = self._reply(_core.get(execution_id))
            except NotFound:
                if not (current is not None and current.pending and current.data.get("status") == ASSESSING):
                    raise
                # A 202 while assessing: the execution is recorded once its assessment ends.
        return current.data

    def get(self, execution_id: str) -> dict[str, Any]:
        return cast("dict[str, Any]", self._data(_core.get(execution_id)))

    def events(self, execution_id: str) -> list[dict[str, Any]]:
        return cast("list[dict[str, Any]]", self._data(_core.events(execution_id)))

    def stream(self, execution_id: str) -> Iterator[tuple[str, Any]]:
        """The execution's server-sent events as (event, data), as they come, until the service
        closes the stream: ``state``, ``recorded``, ``sample``, ``output``, ``dropped``, then
        ``end`` with the report (or ``closing`` when the service stops)."""
        call = _core.stream(execution_id)
        try:
            with self._http.stream(call.method, call.path, headers=call.headers) as response:
                if response.status_code >= 400:
                    response.read()
                    raise _core.problem_of(response)
                yield from _core.server_sent_events(response.iter_lines())
        except httpx.TransportError as error:
            raise _core.transport_error(call, error, 1) from None

    def confirm(self, execution_id: str, explanation: str = "", *, on_behalf_of: str | None = None, wait_s: float | None = None) -> Reply:
        return self._reply(_core.confirm(execution_id, explanation, on_behalf_of, wait_s))

    def override(self, execution_id: str, explanation: str, *, on_behalf_of: str | None = None, wait_s: float | None = None) -> Reply:
        return self._reply(_core.override(execution_id, explanation, on_behalf_of, wait_s))

    def deny(self, execution_id: str, reason: str = "") -> dict[str, Any]:
        return cast("dict[str, Any]", self._data(_core.deny(execution_id, reason)))

    def cancel(self, execution_id: str) -> dict[str, Any]:
        return cast("dict[str, Any]", self._data(_core.cancel(execution_id)))

    def executions(self, **filters: Any) -> list[dict[str, Any]]:
        """Executions, newest first (``status``, ``level``, ``since``, ``until``, ``submitter``,
        ``task``, ``limit``, ``page``): a submitter's own, every one for the other roles."""
        return cast("list[dict[str, Any]]", self._data(_core.executions(filters)))

    def pending(self) -> list[dict[str, Any]]:
        """What waits for a confirmation or an override, its findings and the seconds left."""
        return cast("list[dict[str, Any]]", self._data(_core.pending()))

    def report(self, since: str | None = None, until: str | None = None) -> dict[str, Any]:
        """The audit report over whole UTC days, tied to the ledger's head (role ``auditor``)."""
        return cast("dict[str, Any]", self._data(_core.report(since, until)))

    def policy(self) -> dict[str, Any]:
        """The policy version in force (0: the shipped folder) and its files' SHA-256."""
        return cast("dict[str, Any]", self._data(_core.policy_current()))

    def validate_policy(self, policy: PolicyArg) -> dict[str, Any]:
        """Check a policy (name to text, or a folder) as an apply would (role ``admin``); nothing is
        recorded. ``InvalidRequest`` naming what does not validate."""
        return cast("dict[str, Any]", self._data(_core.policy_validate(policy_files(policy))))

    def apply_policy(self, policy: PolicyArg) -> dict[str, Any]:
        """Validate a policy, then record it as the next version (role ``admin``)."""
        return cast("dict[str, Any]", self._data(_core.policy_apply(policy_files(policy))))

    def verify(self) -> dict[str, Any]:
        """``audit verify`` of the service's whole ledger (role ``auditor``)."""
        return cast("dict[str, Any]", self._data(_core.verify()))

    def export(self, out: IO[bytes], *, execution: str | None = None, from_position: int | None = None, to_position: int | None = None,
               max_bytes: int = EXPORT_MAX_BYTES, max_s: float = EXPORT_MAX_S, without_file_bytes: bool = False) -> int:
        """Write the bundle the service streams to ``out`` as it comes; the bytes written.
        ``AnswerTooLarge`` past ``max_bytes``, ``Timeout`` past ``max_s``, ``TransportError`` when
        the answer was cut short (the service ends an export that failed after its first byte
        without the stream's last chunk, and a whole bundle ends with a line's end). What was
        written by then is not a bundle: the caller discards it."""
        call = _core.export(execution, from_position, to_position, without_file_bytes)
        sink = _core.BundleSink(call, out, max_bytes, max_s)
        try:
            with self._http.stream(call.method, call.path, params=call.params, headers=call.headers) as response:
                if response.status_code >= 400:
                    response.read()
                    raise _core.problem_of(response)
                for chunk in response.iter_bytes():
                    sink.write(chunk)
        except httpx.TransportError as error:
            raise _core.transport_error(call, error, 1) from None
        return sink.finish()
