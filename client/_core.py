"""What ``Client``, ``AsyncClient`` and ``PlainClient`` share, free of I/O: the settings, each call as
a ``Call`` (method, path, body, headers, whether it may be retried, what its answer is), the mapping
of an answer to its JSON or to the exception tree, and the retry rule. It imports no pydantic: the
typed clients read the JSON into models (``_typed``), the plain client hands it over as it is."""

from __future__ import annotations

import ipaddress
import json
import os
import ssl
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any
from urllib.parse import quote, urlsplit

import httpx

from ._errors import AnswerTooLarge, MaiSafetyClientError, ProblemError, Timeout, TransportError, error_for
from ._token import resolve_token

URL_ENV = "MAI_SAFETY_URL"
DEFAULT_URL = "http://127.0.0.1:8750"
#: Connecting and writing are quick or broken; reading waits for a run (the server waits up to its
#: ``--max-wait``, 60 s by default, before it answers 202).
DEFAULT_TIMEOUT = httpx.Timeout(10.0, read=90.0)
USER_AGENT = "mai-safety-client/1"
#: Failures after which the request may or may not have reached the service.
_MAYBE_SENT = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError, httpx.ReadTimeout, httpx.WriteTimeout)
#: Failures before anything was sent: always safe to try again.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
#: Answers from something in front of the service (a proxy whose upstream is restarting).
_RETRY_STATUSES = frozenset({502, 504})


#: Statuses after which an execution changes no more, and the one that waits for a person.
FINAL_STATUSES = frozenset({"completed", "terminated", "rejected"})
AWAITING_OVERRIDE = "awaiting_override"
#: A 202 answered before the assessment ended: the execution is not recorded yet.
ASSESSING = "assessing"


class ClientConfigurationError(MaiSafetyClientError):
    """The client was given a setting it cannot use safely (e.g. a token over plain HTTP off loopback)."""


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    #: What the answer is (``_typed.READERS``): "execution", "execution_or_pending" (202: pending),
    #: "events", "assessment", "status", "health", "verification".
    reads: str
    body: dict[str, Any] | None = None
    params: dict[str, str] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    #: Idempotent (GET, an assessment that records nothing) or a submission carrying its key.
    retryable: bool = False


@dataclass(frozen=True)
class Settings:
    base_url: str
    token: str = field(repr=False)  # a credential: never in a repr, a log line or a traceback's locals
    timeout: httpx.Timeout
    retries: int
    backoff_s: float

    @classmethod
    def build(
        cls,
        base_url: str | None,
        token: str | None,
        token_file: str | os.PathLike[str] | None,
        timeout: float | httpx.Timeout | None,
        retries: int,
        backoff_s: float,
        allow_insecure: bool,
        environ: Mapping[str, str] | None = None,
    ) -> Settings:
        environ = os.environ if environ is None else environ
        url = (base_url or environ.get(URL_ENV) or DEFAULT_URL).rstrip("/")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ClientConfigurationError(f"the service URL {url!r} is not http(s)://HOST[:PORT]")
        if parts.scheme == "http" and not allow_insecure and not _is_loopback(parts.hostname):
            raise ClientConfigurationError(
                f"the service URL {url} is plain HTTP to {parts.hostname}, not loopback: the token would travel in the clear; "
                "use https:// (TLS in front of the service), or allow_insecure=True on a network you trust"
            )
        if retries < 0:
            raise ClientConfigurationError("retries must be 0 or more")
        if timeout is None:
            timeout = DEFAULT_TIMEOUT
        elif not isinstance(timeout, httpx.Timeout):
            timeout = httpx.Timeout(timeout)
        return cls(url, resolve_token(token, token_file, environ), timeout, retries, backoff_s)

    def headers(self) -> dict[str, str]:
        return {
            "Authorization": f"Bearer {self.token}",
            "Accept": "application/json, application/problem+json",
            "User-Agent": USER_AGENT,
        }


def http_options(settings: Settings) -> dict[str, Any]:
    """What the httpx clients are built with. A service at ``http://`` is never spoken to in TLS
    (the client sends only to its base URL and follows no redirect), so instead of loading the CA
    bundle (about 20 ms of every start) it gets a TLS context that trusts no certificate at all:
    were TLS ever attempted, it would fail closed. ``https://`` verifies as httpx does."""
    verify: ssl.SSLContext | bool = True
    if settings.base_url.startswith("http://"):
        verify = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # hostname checked, certificate required, no CA trusted
    return {"base_url": settings.base_url, "headers": settings.headers(), "timeout": settings.timeout, "verify": verify}


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# --- the calls ---------------------------------------------------------------------------------


def _id(execution_id: str) -> str:
    """An execution id as one path segment: ``../status`` cannot reach another route."""
    if not execution_id:
        raise ClientConfigurationError("an execution id is required")
    return quote(str(execution_id), safe="")


def _clean(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if value is not None}


def new_idempotency_key() -> str:
    return f"mai-client-{uuid.uuid4().hex}"


def health() -> Call:
    return Call("GET", "/v1/health", "health", retryable=True)


def status() -> Call:
    return Call("GET", "/v1/status", "status", retryable=True)


def assess(code: str, provenance: str) -> Call:
    # Nothing is recorded and nothing runs: as safe to repeat as a GET.
    return Call("POST", "/v1/assessments", "assessment", {"code": code, "provenance": provenance}, retryable=True)


def submit(
    code: str,
    *,
    provenance: str,
    limits: Mapping[str, Any] | None,
    network: str,
    requirements: list[str] | tuple[str, ...] | None,
    task_id: str | None,
    session_id: str | None,
    on_behalf_of: str | None,
    idempotency_key: str | None,
    wait_s: float | None,
    files: list[dict[str, str]] | None = None,
    image: str | None = None,
    revises: str | None = None,
) -> Call:
    """``limits``: plain values, None left out (the typed clients check them against ``Limits`` first).
    ``revises``: the execution this code revises (a diff against its code is recorded)."""
    body = _clean({
        "code": code,
        "provenance": provenance,
        "limits": {key: value for key, value in limits.items() if value is not None} if limits is not None else None,
        "network": network,
        "requirements": list(requirements) if requirements else None,
        "task_id": task_id,
        "session_id": session_id,
        "on_behalf_of": on_behalf_of,
        "wait_s": wait_s,
        "files": files,
        "image": image if image != "default" else None,
        "revises": revises,
    })
    # The key makes a retry safe: the service answers it with the first execution and records nothing new.
    key = idempotency_key or new_idempotency_key()
    return Call("POST", "/v1/executions", "execution_or_pending", body, headers={"Idempotency-Key": key}, retryable=True)


def get(execution_id: str) -> Call:
    """202 (``assessing``): its submitter reads it before its assessment has ended and it is recorded."""
    return Call("GET", f"/v1/executions/{_id(execution_id)}", "execution_or_pending", retryable=True)


def files(execution_id: str) -> Call:
    """The files an execution was given and left: name, size, SHA-256, media type."""
    return Call("GET", f"/v1/executions/{_id(execution_id)}/files", "files", retryable=True)


def file(execution_id: str, name: str) -> Call:
    """One output file's bytes (the answer is the body itself, not JSON)."""
    return Call("GET", f"/v1/executions/{_id(execution_id)}/files/{quote(name, safe='/')}", "bytes", retryable=True)


def events(execution_id: str) -> Call:
    return Call("GET", f"/v1/executions/{_id(execution_id)}/events", "events", retryable=True)


def stream(execution_id: str) -> Call:
    """The execution's server-sent events (read with ``server_sent_events``)."""
    return Call("GET", f"/v1/executions/{_id(execution_id)}/stream", "stream", headers={"Accept": "text/event-stream"}, retryable=True)


def confirm(execution_id: str, explanation: str, on_behalf_of: str | None, wait_s: float | None) -> Call:
    body = _clean({"explanation": explanation, "on_behalf_of": on_behalf_of, "wait_s": wait_s})
    return Call("POST", f"/v1/executions/{_id(execution_id)}/confirm", "execution_or_pending", body)


def override(execution_id: str, explanation: str, on_behalf_of: str | None, wait_s: float | None) -> Call:
    body = _clean({"explanation": explanation, "on_behalf_of": on_behalf_of, "wait_s": wait_s})
    return Call("POST", f"/v1/executions/{_id(execution_id)}/override", "execution_or_pending", body)


def deny(execution_id: str, reason: str) -> Call:
    return Call("POST", f"/v1/executions/{_id(execution_id)}/deny", "execution", {"reason": reason})


def cancel(execution_id: str) -> Call:
    return Call("POST", f"/v1/executions/{_id(execution_id)}/cancel", "execution")


def verify() -> Call:
    return Call("GET", "/v1/audit/verify", "verification", retryable=True)


def executions(filters: Mapping[str, Any]) -> Call:
    """``GET /v1/executions``: status, level, since, until, submitter, task, limit, page."""
    return Call("GET", "/v1/executions", "executions", params=_params(filters), retryable=True)


def pending() -> Call:
    return Call("GET", "/v1/pending", "pending", retryable=True)


def report(since: str | None, until: str | None) -> Call:
    """``GET /v1/report`` over whole UTC days (``YYYY-MM-DD``, both ends inclusive)."""
    return Call("GET", "/v1/report", "report", params=_params({"since": since, "until": until}), retryable=True)


def export(execution: str | None, from_position: int | None, to_position: int | None, without_file_bytes: bool = False) -> Call:
    """``GET /v1/audit/export``: the bundle, one JSON object a line, streamed; ``without_file_bytes``:
    the runs' files named with their hashes, their bytes left out."""
    values = {"execution": execution, "from": from_position, "to": to_position, "without_file_bytes": "true" if without_file_bytes else None}
    return Call(
        "GET", "/v1/audit/export", "bundle", params=_params(values),
        headers={"Accept": "application/x-ndjson, application/problem+json"}, retryable=True,
    )


def policy_current() -> Call:
    """``GET /v1/policies/current``: the version in force and its files' SHA-256."""
    return Call("GET", "/v1/policies/current", "policy", retryable=True)


def policy_validate(files: Mapping[str, str]) -> Call:
    """``POST /v1/policies/validate`` (role admin): checked as an apply would be; nothing recorded."""
    return Call("POST", "/v1/policies/validate", "policy_check", {"files": dict(files)}, retryable=True)


def policy_apply(files: Mapping[str, str]) -> Call:
    """``POST /v1/policies`` (role admin): validated, then recorded as the next version. Not
    retried: a second apply after a lost answer would record a second version."""
    return Call("POST", "/v1/policies", "policy", {"files": dict(files)})


def _params(values: Mapping[str, Any]) -> dict[str, str]:
    return {key: str(value) for key, value in values.items() if value is not None}


# --- answers and failures ------------------------------------------------------------------------


def request_for(client: httpx.Client | httpx.AsyncClient, call: Call) -> httpx.Request:
    return client.build_request(call.method, call.path, json=call.body, params=call.params, headers=call.headers)


def answer(call: Call, response: httpx.Response) -> tuple[int, Any]:
    """The answer's status and JSON, or the exception for an error status."""
    if response.status_code >= 400:
        raise problem_of(response)
    if call.reads == "bytes":
        return response.status_code, response.content
    try:
        return response.status_code, response.json()
    except ValueError as exc:  # not JSON
        raise unreadable(call, response.status_code, exc) from None


def unreadable(call: Call, status: int, exc: Exception) -> ProblemError:
    """An answer that is not JSON, or not the shape the call expects."""
    return ProblemError(status, {"title": "Unexpected answer", "detail": f"the service's answer to {call.method} {call.path} could not be read: {exc}"})


def server_sent_events(lines: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """(event, data) for each server-sent event in ``lines``, its data read as JSON; comments
    (the keep-alives) are skipped."""
    event, data = "message", []
    for line in lines:
        if line == "":
            if data:
                yield event, json.loads("\n".join(data))
            event, data = "message", []
        elif line.startswith(":"):
            continue
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))


class BundleSink:
    """Where an exported bundle goes as it comes, for both clients: ``out``, within ``max_bytes``
    and ``max_s`` (``AnswerTooLarge``, ``Timeout``); ``finish`` refuses a bundle cut short (a
    whole one ends with a line's end)."""

    def __init__(self, call: Call, out: IO[bytes], max_bytes: int, max_s: float) -> None:
        self.call, self.out, self.max_bytes = call, out, max_bytes
        self.deadline = time.monotonic() + max_s
        self.max_s = max_s
        self.written, self.last = 0, b""

    def write(self, chunk: bytes) -> None:
        self.written += len(chunk)
        if self.written > self.max_bytes:
            raise AnswerTooLarge(f"the bundle passed {self.max_bytes} bytes: export a range (--from, --to) or one execution")
        if time.monotonic() > self.deadline:
            raise Timeout(f"the export had not ended after {self.max_s:g} s: export a range (--from, --to) or one execution")
        self.out.write(chunk)
        self.last = chunk[-1:] or self.last

    def finish(self) -> int:
        if self.last != b"\n":
            raise TransportError(f"{self.call.method} {self.call.path}: the bundle was cut short ({self.written} bytes): try again")
        return self.written


def problem_of(response: httpx.Response) -> ProblemError:
    problem: dict[str, Any]
    try:
        data = response.json()
        problem = data if isinstance(data, dict) else {"detail": str(data)}
    except ValueError:  # a bare error page from something in front of the service
        text = " ".join(response.text.split())[:200]
        problem = {"title": response.reason_phrase, "detail": text or response.reason_phrase}
    return error_for(response.status_code, problem, _retry_after(response))


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date: the caller chooses its own wait


def should_retry(call: Call, attempt: int, settings: Settings, *, error: Exception | None = None, response: httpx.Response | None = None) -> bool:
    if attempt >= settings.retries:
        return False
    if error is not None:
        return isinstance(error, _NOT_SENT) or (call.retryable and isinstance(error, _MAYBE_SENT))
    return response is not None and call.retryable and response.status_code in _RETRY_STATUSES


def delay(attempt: int, settings: Settings) -> float:
    return settings.backoff_s * (2**attempt)


def transport_error(call: Call, error: Exception, attempts: int) -> TransportError:
    what = f"{call.method} {call.path}"
    tries = f" after {attempts} attempt(s)" if attempts > 1 else ""
    if isinstance(error, httpx.TimeoutException):
        return Timeout(f"{what}: the service did not answer in time{tries} ({type(error).__name__})")
    return TransportError(f"{what}: the connection failed{tries} ({type(error).__name__}: {error or 'dropped'})")
