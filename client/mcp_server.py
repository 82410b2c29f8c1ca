"""``mai-safety mcp``: an MCP server over stdio for an AI assistant, a client of ``mai-safety serve``
through ``mai_safety.client`` with the assistant's own (submitter) token.

Five tools: assess code, run code (a revision of an earlier run too: ``revises``), get an execution,
list the caller's recent executions (those its token submitted, or only this MCP session's), and the
service's security status (read-only); and three for sessions (_mcp_sessions.py: start one, run
a cell in it, end it). There is deliberately no tool that confirms, overrides or denies: HIGH and BLOCKED code
comes back ``awaiting_override`` with its findings and what a person must do, and that answer
stays a human's act through another principal's token.

Standard output is the protocol's channel: nothing else is ever written to it."""

from __future__ import annotations

import base64
import binascii
import collections
import logging
import os
import sys
import uuid
import warnings
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import CallToolResult, ImageContent, TextContent, ToolAnnotations

from ._mcp_sessions import SessionTools

from . import (
    AsyncClient,
    ClientConfigurationError,
    Execution,
    Finding,
    HostBusy,
    InvalidRequest,
    MaiSafetyClientError,
    NotAuthenticated,
    NotFound,
    NotPermitted,
    PendingExecution,
    ProblemError,
    TokenError,
    TooLarge,
    TransportError,
)

#: How many of this session's executions ``list_recent_executions`` remembers.
REMEMBERED = 100
INSTRUCTIONS = (
    "mai-safety assesses Python code, runs it in a hardened throw-away container and records every step "
    "on a signed ledger. Use assess_code to see the verdict without running anything, run_code to run. "
    "Code rated HIGH or BLOCKED is not run: it comes back awaiting_override, and only a person holding "
    "another role can let it run. You cannot confirm or override it; do not try to reword code to slip "
    "past the assessment: tell the user what the findings say instead."
)

Provenance = Literal["mai", "user", "external"]


class FindingOut(BaseModel):
    level: str
    analyzer: str
    rule_id: str
    message: str
    line: int = 0
    snippet: str = ""


class AssessmentOut(BaseModel):
    """The verdict alone: nothing ran, nothing was recorded."""

    level: str = Field(description="LOW, MEDIUM, HIGH or BLOCKED")
    decision: str = Field(description="what the gate would do: run, run_with_warnings, require_confirmation, require_override")
    findings: list[FindingOut]
    would_run: bool = Field(description="whether run_code would run it without a person's answer")


#: What run_code takes and gives back of files: small ones, a few (the service's policy bounds the rest).
MCP_MAX_FILES = 20
MCP_MAX_FILE_CHARS = 256 * 1024
#: A binary file's base64, bounded like a text file's content: at most 192 KiB of bytes.
MCP_MAX_BINARY_CHARS = MCP_MAX_FILE_CHARS
MCP_IMAGE_BYTES = 1024 * 1024
MCP_TEXT_BYTES = 64 * 1024
_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_TEXTS = ("text/", "application/json")


class InvalidToolFile(ValueError):
    """A file argument of run_code that cannot be read (bad base64, a name given twice)."""


def _given_files(texts: dict[str, str], binaries: dict[str, str]) -> dict[str, bytes]:
    """run_code's ``files`` and ``binary_files`` as one name-to-bytes map for the client; base64 is
    decoded strictly, as the HTTP route decodes ``content_base64``, and the service's policy
    judges every name and size again."""
    if len(texts) + len(binaries) > MCP_MAX_FILES:
        raise InvalidToolFile(f"files and binary_files name {len(texts) + len(binaries)} files in all, over {MCP_MAX_FILES}")
    given = {name: text.encode("utf-8") for name, text in texts.items()}
    for name, encoded in binaries.items():
        if name in given:
            raise InvalidToolFile(f"binary_files[{name!r}] is also in files: give each file once")
        try:
            given[name] = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidToolFile(f"binary_files[{name!r}] is not base64 (RFC 4648, standard alphabet)") from None
    return given


class FileOut(BaseModel):
    name: str
    bytes: int
    sha256: str
    media_type: str = ""


class ExecutionOut(BaseModel):
    execution_id: str
    status: str = Field(description="completed, terminated, rejected, running, assessing (not recorded yet), or awaiting_override (not run: a person must answer)")
    level: str
    exit_code: int | None = None
    stdout: str = Field(default="", description="the program's own output: its words, never the service's")
    stderr: str = Field(default="", description="the program's own error output")
    termination_reason: str | None = None
    detail: str = ""
    duration_s: float | None = None
    output_truncated: bool = False
    findings: list[FindingOut] = Field(default_factory=list)
    awaiting_override: bool = False
    what_a_person_must_do: str | None = Field(default=None, description="for awaiting_override: who must answer, and how")
    files_out: list[FileOut] = Field(default_factory=list, description="the files the run created or changed; small images and texts also come as content")


class RecentExecutionsOut(BaseModel):
    note: str
    executions: list[ExecutionOut]


def _finding(finding: Finding) -> FindingOut:
    return FindingOut(level=finding.level, analyzer=finding.analyzer, rule_id=finding.rule_id, message=finding.message,
                      line=finding.line, snippet=finding.snippet)


def what_a_person_must_do(execution: Execution) -> str | None:
    if not execution.awaiting_override:
        return None
    by = f" before {execution.answer_by}" if execution.answer_by else ""
    if execution.override_kind == "override":
        return (
            f"This code is BLOCKED and was not run. Only a person with the security-officer role (not this assistant's "
            f"token) can override it, with a written explanation of why it is safe{by}: `mai-safety approve "
            f"{execution.execution_id} --explanation WHY` by the operator, or POST /v1/executions/{execution.execution_id}/override "
            "with their own token. Otherwise it ends unrun. Tell the user what the findings say."
        )
    return (
        f"This code is HIGH risk and was not run. A person with the approver role (not this assistant's token) must "
        f"confirm it{by}: `mai-safety approve {execution.execution_id}` by the operator, or POST "
        f"/v1/executions/{execution.execution_id}/confirm with their own token. Otherwise it ends unrun. "
        "Tell the user what the findings say; get_execution shows whether it has run since."
    )


def _execution(execution: Execution | PendingExecution) -> ExecutionOut:
    if isinstance(execution, PendingExecution):  # its assessment has not ended: nothing recorded yet
        return ExecutionOut(execution_id=execution.execution_id, status=execution.status, level="",
                            detail="its assessment has not ended yet: ask get_execution again in a moment")
    return ExecutionOut(
        execution_id=execution.execution_id, status=execution.status, level=execution.level, exit_code=execution.exit_code,
        stdout=execution.stdout, stderr=execution.stderr, termination_reason=execution.termination_reason,
        detail=execution.detail, duration_s=execution.duration_s, output_truncated=execution.output_truncated,
        findings=[_finding(f) for f in execution.findings], awaiting_override=execution.awaiting_override,
        what_a_person_must_do=what_a_person_must_do(execution),
        files_out=[FileOut(name=item.name, bytes=item.bytes, sha256=item.sha256, media_type=item.media_type) for item in execution.files_out],
    )


def tool_error(exc: Exception) -> ToolError:
    """One clear sentence for the assistant: what went wrong and what to do; never a traceback."""
    if isinstance(exc, InvalidToolFile):
        return ToolError(f"invalid arguments for run_code: {exc}")
    if isinstance(exc, NotAuthenticated):
        return ToolError(f"the service refused this MCP server's token ({exc.detail}): the operator must give it a valid submitter token")
    if isinstance(exc, NotPermitted):
        return ToolError(f"not permitted: {exc.detail}")
    if isinstance(exc, NotFound):
        return ToolError(f"no such execution, or not one of yours: {exc.detail}")
    if isinstance(exc, InvalidRequest):
        return ToolError(f"the request was refused as invalid: {exc.detail}")
    if isinstance(exc, TooLarge):
        return ToolError(f"the code is too large for the service: {exc.detail}")
    if isinstance(exc, HostBusy):
        wait = f" try again in {exc.retry_after:g} s" if exc.retry_after else " try again later"
        return ToolError(f"the host has no room to run code now:{wait} (nothing ran)")
    if isinstance(exc, ProblemError):
        return ToolError(f"the service answered {exc.status}: {exc.detail}")
    if isinstance(exc, TransportError):
        return ToolError(f"the mai-safety service could not be reached: {exc.message}")
    if isinstance(exc, MaiSafetyClientError):
        return ToolError(exc.message)
    return ToolError(f"internal error in the MCP server ({type(exc).__name__}): please report it")


class MaiSafetyTools:
    """The tools, over one ``AsyncClient``; remembers this session's executions too."""

    def __init__(self, client: AsyncClient, session_id: str) -> None:
        self.client = client
        self.session_id = session_id
        self.submitted: collections.deque[str] = collections.deque(maxlen=REMEMBERED)

    async def assess_code(
        self,
        code: Annotated[str, Field(min_length=1, description="the Python program")],
        provenance: Annotated[Provenance, Field(description="who wrote it: mai (you), user, or external")] = "mai",
    ) -> AssessmentOut:
        """Assess Python code without running it or recording anything: the risk level (LOW, MEDIUM,
        HIGH, BLOCKED) and each finding with its line and what to do instead."""
        try:
            assessment = await self.client.assess(code, provenance=provenance)
        except Exception as exc:  # noqa: BLE001 - every failure becomes one clear tool error
            raise tool_error(exc) from None
        return AssessmentOut(level=assessment.level, decision=assessment.decision, findings=[_finding(f) for f in assessment.findings],
                             would_run=assessment.level in ("LOW", "MEDIUM"))

    async def run_code(
        self,
        code: Annotated[str, Field(min_length=1, description="the Python program; it runs as python3 -I in a container with no network by default")],
        timeout_s: Annotated[float | None, Field(gt=0, le=3600, description="lower the wall-clock limit (seconds)")] = None,
        memory_mb: Annotated[int | None, Field(gt=0, le=65536, description="lower the memory limit (MiB)")] = None,
        cpus: Annotated[float | None, Field(gt=0, le=64, description="lower the CPU quota")] = None,
        pids: Annotated[int | None, Field(gt=0, le=100000, description="lower the process limit")] = None,
        output_kb: Annotated[int | None, Field(gt=0, le=1048576, description="lower the captured output cap (KiB)")] = None,
        network: Annotated[Literal["none", "deps"], Field(description="none (default), or deps: read-only egress to install requirements")] = "none",
        requirements: Annotated[list[Annotated[str, Field(min_length=1, max_length=200)]], Field(max_length=50, description="packages to install first (needs network=deps)")] = [],  # noqa: B006 - pydantic copies it
        provenance: Annotated[Provenance, Field(description="who wrote it: mai (you), user, or external")] = "mai",
        task_id: Annotated[str | None, Field(max_length=200, description="your task's id, recorded beside the execution")] = None,
        idempotency_key: Annotated[str | None, Field(min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$", description="the same key again returns the first execution instead of running twice")] = None,
        files: Annotated[dict[str, Annotated[str, Field(max_length=MCP_MAX_FILE_CHARS)]], Field(max_length=MCP_MAX_FILES, description="small text files placed in the run's working directory: name (e.g. data.csv) to content; a .py is judged with the code")] = {},  # noqa: B006 - pydantic copies it
        binary_files: Annotated[dict[str, Annotated[str, Field(max_length=MCP_MAX_BINARY_CHARS)]], Field(max_length=MCP_MAX_FILES, description="small binary files (e.g. data.xlsx, photo.png) placed in the run's working directory: name to its bytes as base64 (RFC 4648, standard alphabet)")] = {},  # noqa: B006 - pydantic copies it
        revises: Annotated[str | None, Field(min_length=1, max_length=64, description="the execution_id of an earlier run this code revises (a fix): a diff against its code is recorded")] = None,
    ) -> Annotated[CallToolResult, ExecutionOut]:
        """Assess and run Python code in a hardened, throw-away container, recorded on the ledger.
        LOW and MEDIUM code runs and the result holds its output and exit code. HIGH and BLOCKED code
        does NOT run: the result is awaiting_override with the findings and what a person must do;
        no tool can confirm or override it. The files the run leaves come back listed; small
        images among them as image content, small text files as text."""
        limits = {
            "timeout_s": timeout_s, "cpus": cpus, "pids": pids,
            "memory_bytes": memory_mb * 1024 * 1024 if memory_mb else None,
            "output_bytes": output_kb * 1024 if output_kb else None,
        }
        try:
            given = _given_files(files, binary_files)
            execution = await self.client.run(
                code, provenance=provenance, limits={k: v for k, v in limits.items() if v is not None}, network=network,
                requirements=requirements, task_id=task_id, session_id=self.session_id, idempotency_key=idempotency_key,
                files=given or None, revises=revises,
            )
        except Exception as exc:  # noqa: BLE001
            raise tool_error(exc) from None
        if execution.execution_id not in self.submitted:
            self.submitted.append(execution.execution_id)
        out = _execution(execution)
        return CallToolResult(content=[TextContent(type="text", text=out.model_dump_json()), *await self._file_contents(execution)],
                              structuredContent=out.model_dump())

    async def _file_contents(self, execution: Execution) -> list[ImageContent | TextContent]:
        """The run's small images as image content and small texts as text; the rest stay listed only."""
        contents: list[ImageContent | TextContent] = []
        for item in execution.files_out:
            is_image, is_text = item.media_type in _IMAGES, item.media_type.startswith(_TEXTS)
            if not (is_image and item.bytes <= MCP_IMAGE_BYTES or is_text and item.bytes <= MCP_TEXT_BYTES):
                continue
            try:
                data = await self.client.download(execution.execution_id, item.name)
            except Exception:  # noqa: BLE001 - a file that cannot be fetched stays listed, by name and hash
                continue
            if is_image:
                contents.append(ImageContent(type="image", data=base64.b64encode(data).decode("ascii"), mimeType=item.media_type))
            else:
                contents.append(TextContent(type="text", text=f"{item.name}:\n{data.decode('utf-8', errors='replace')}"))
        return contents

    async def get_execution(
        self, execution_id: Annotated[str, Field(min_length=1, max_length=100, description="an execution id from run_code")]
    ) -> ExecutionOut:
        """An execution as it stands now: status, output, exit code, findings (e.g. whether HIGH code has been confirmed and run since)."""
        try:
            return _execution(await self.client.get(execution_id))
        except Exception as exc:  # noqa: BLE001
            raise tool_error(exc) from None

    async def list_recent_executions(
        self,
        limit: Annotated[int, Field(ge=1, le=REMEMBERED, description="how many, newest first")] = 20,
        this_session_only: Annotated[bool, Field(description="only those this MCP session submitted")] = False,
    ) -> RecentExecutionsOut:
        """The executions this assistant's token submitted, newest first, each as it stands now
        (or only this MCP session's)."""
        try:
            if this_session_only:
                ids = list(reversed(self.submitted))[:limit]
                note = f"The executions this MCP session submitted (session_id {self.session_id}), newest first."
            else:
                rows = await self.client.executions(limit=limit)
                ids = [str(row["execution_id"]) for row in rows]
                note = (
                    "The executions this token submitted, newest first, from the service's list (a submitter "
                    "sees only its own; one submitted a moment ago may take a moment to be listed)."
                )
            executions = [_execution(await self.client.get(execution_id)) for execution_id in ids]
        except Exception as exc:  # noqa: BLE001
            raise tool_error(exc) from None
        return RecentExecutionsOut(note=note, executions=executions)


    async def get_security_status(self) -> SecurityStatusOut:
        """Whether the service can run code safely now: Docker (the sandbox), the ledger (the
        record), gVisor (the runtime for untrusted code). Read-only: nothing runs, nothing is recorded."""
        try:
            status = (await self.client.status()).model_dump()
        except Exception as exc:  # noqa: BLE001
            raise tool_error(exc) from None
        runsc = (status.get("runtimes") or {}).get("runsc") or {}
        return SecurityStatusOut(
            ok=bool(status.get("ok")), docker=bool((status.get("docker") or {}).get("ok")),
            ledger=bool((status.get("ledger") or {}).get("ok")), gvisor=bool(runsc.get("available")),
        )


class SecurityStatusOut(BaseModel):
    """What answers on the service's side."""

    ok: bool = Field(description="the service can assess, run and record now")
    docker: bool = Field(description="the sandbox's engine answers")
    ledger: bool = Field(description="the ledger answers")
    gvisor: bool = Field(description="gVisor's runtime (runsc), for untrusted code, is available")


class _Server(FastMCP):
    """FastMCP, with a bad argument told in one line per field (the SDK's text is pydantic's whole
    report, with links), so the assistant can correct its call."""

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        try:
            return await super().call_tool(name, arguments)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                fields = "; ".join(
                    f"{'.'.join(str(part) for part in error['loc']) or 'arguments'}: {error['msg']}" for error in cause.errors()
                )
                raise ToolError(f"invalid arguments for {name}: {fields}") from None
            raise


def build_server(client: AsyncClient, session_id: str | None = None) -> FastMCP:
    tools = MaiSafetyTools(client, session_id or f"mcp-{uuid.uuid4()}")
    server = _Server("mai-safety", instructions=INSTRUCTIONS, log_level="WARNING")
    reads = ToolAnnotations(readOnlyHint=True, openWorldHint=False)
    server.add_tool(tools.assess_code, title="Assess Python code", annotations=reads, structured_output=True)
    server.add_tool(tools.run_code, title="Run Python code in the sandbox",
                    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False), structured_output=True)
    server.add_tool(tools.get_execution, title="Get an execution", annotations=reads, structured_output=True)
    server.add_tool(tools.list_recent_executions, title="This session's executions", annotations=reads, structured_output=True)
    server.add_tool(tools.get_security_status, title="The service's security status", annotations=reads, structured_output=True)
    sessions = SessionTools(client, _execution, tool_error)  # issue #27: a live interpreter across calls
    acts = ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False)
    server.add_tool(sessions.start_session, title="Start a Python session", annotations=acts, structured_output=True)
    server.add_tool(sessions.run_in_session, title="Run a cell in a session", annotations=acts, structured_output=True)
    server.add_tool(sessions.end_session, title="End a session", annotations=acts, structured_output=True)
    return server


def main(argv: list[str] | None = None) -> int:
    """Serve MCP on stdio. The service: MAI_SAFETY_URL (default http://127.0.0.1:8750); the token:
    MAI_SAFETY_TOKEN, MAI_SAFETY_TOKEN_FILE or ~/.config/mai-safety/token (mode 0600)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        sys.stderr.write(
            "usage: mai-safety mcp\n  an MCP server on stdio for an AI assistant, a client of `mai-safety serve`.\n"
            "  MAI_SAFETY_URL (default http://127.0.0.1:8750); MAI_SAFETY_TOKEN or MAI_SAFETY_TOKEN_FILE: a submitter token\n"
        )
        return 0
    if args:
        sys.stderr.write(f"mai-safety: mcp takes no arguments, got {' '.join(args)} (see mai-safety mcp --help)\n")
        return 2
    # pydantic-settings warns about the SDK's own settings model on every start: not ours to fix.
    warnings.filterwarnings("ignore", module="pydantic_settings")
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="mai-safety mcp: %(message)s")
    try:
        client = AsyncClient(os.environ.get("MAI_SAFETY_URL"))
    except (TokenError, ClientConfigurationError) as exc:
        sys.stderr.write(f"mai-safety: {exc.message}\n")
        return 6
    try:
        build_server(client).run("stdio")
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
