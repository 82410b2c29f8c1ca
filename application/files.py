"""Files in and files out (issue #25): a run's input files judged with its program and kept as blobs
before ``Assessed`` names them; its output files kept as blobs before the ending names them; and
the queries that serve them back, visible as the execution itself is.

The bytes of both are blobs beside the ledger (docs/decisions/0014): stored and committed before
the event that names them, served only if they hash to the SHA-256 the event records.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import replace
from uuid import UUID

from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.domain.errors import InvalidSubmission
from mai_safety.domain.files import (
    THUMBNAIL_MAX_BYTES,
    InputFile,
    InvalidInputFile,
    UnsafeFileName,
    check_file_name,
    output_record,
    thumbnail_type,
)
from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.output import BlobReference
from mai_safety.domain.payloads import FileRecord

from .audit_report import RunFiles
from mai_safety.ledger import read_blob
from .errors import CannotVerify, ExecutionNotFound
from .ports import Assessor, BlobStore
from .store import ExecutionStore


def assess_with_inputs(assessor: Assessor, submission: Submission, inputs: Sequence[InputFile], max_code_bytes: int) -> Assessment:
    """The program's verdict and every Python input's (a helper module the program imports is
    code too): the most severe level decides; each input's findings say which file they are in."""
    assessment = assessor.assess(submission)
    for index, item in enumerate(inputs):
        if not item.is_python:
            continue
        try:
            module = Submission.from_bytes(item.data, submission.provenance, max_code_bytes, f"input file {item.name!r}")
        except InvalidSubmission as exc:
            # A .py input that cannot be read as code cannot be judged: it is refused, as the program would be.
            raise InvalidInputFile(f"{exc.message} (a .py input is code, judged with the program)", field=f"files[{index}].content_base64") from None
        judged = assessor.assess(module)
        assessment = Assessment(
            level=RiskLevel.highest([assessment.level, judged.level]),
            findings=assessment.findings + tuple(_in_file(finding, item.name) for finding in judged.findings),
            analyzers=tuple(dict.fromkeys(assessment.analyzers + judged.analyzers)),
            duration_ms=assessment.duration_ms + judged.duration_ms,
            complexity={key: assessment.complexity.get(key, 0) + judged.complexity.get(key, 0) for key in {*assessment.complexity, *judged.complexity}},
        )
    return assessment


def _in_file(finding: Finding, name: str) -> Finding:
    return replace(finding, message=f"in input file {name}: {finding.message}")


def store_inputs(blobs: BlobStore | None, inputs: Sequence[InputFile]) -> list[FileRecord]:
    """Each input's bytes stored (committed) as a blob; the records ``Assessed`` will carry."""
    if not inputs:
        return []
    if blobs is None:
        raise InvalidSubmission("input files need a ledger with a blob store beside it; this one has none")
    records = []
    for item in inputs:
        blobs.put(item.data)
        records.append(item.record())
    return records


def read_inputs(blobs: BlobStore | None, records: Sequence[FileRecord]) -> tuple[dict[str, bytes], str]:
    """The recorded inputs' bytes, exactly as recorded; and, if one cannot be served, why (then none)."""
    files: dict[str, bytes] = {}
    for record in records:
        data, fault = read_blob(blobs, BlobReference(record["sha256"], record["bytes"]))
        if data is None:
            return {}, f"input file {record['name']!r} cannot be read back: " + (fault[1] if fault else "no blob store here")
        files[record["name"]] = data
    return files, ""


def keep_outputs(blobs: BlobStore | None, collected: Sequence[tuple[str, bytes]]) -> list[FileRecord]:
    """Each output's bytes stored as a blob first; the records the ending will carry. Without a
    blob store the record keeps the name, size and hash, and says the bytes were not kept."""
    records: list[FileRecord] = []
    for name, data in collected:
        record = output_record(name, data)
        if blobs is None:
            record["unavailable"] = "no blob store is configured here: the bytes were not kept"
        else:
            blobs.put(data)
        records.append(record)
    return records


class FileQueries:
    """The files of an execution, for the service's routes and the clients: read from ``store``,
    their bytes from ``blobs``."""

    def __init__(self, store: ExecutionStore, blobs: BlobStore | None) -> None:
        self.store = store
        self.blobs = blobs

    def files(self, execution_id: UUID | str) -> dict[str, list[FileRecord]]:
        """The files the execution was given and left: name, size, SHA-256 (and media type)."""
        execution = self.store.get_visible(execution_id)
        return {"files_in": list(execution.files_in), "files_out": list(execution.outcome.get("files_out") or [])}

    def file(self, execution_id: UUID | str, name: str) -> tuple[FileRecord, bytes]:
        """One output file and its bytes, only if they hash to the name recorded (ExecutionNotFound
        for a name the execution did not leave, as for an execution one may not see)."""
        execution = self.store.get_visible(execution_id)
        try:
            wanted = check_file_name(name)
        except UnsafeFileName:
            raise ExecutionNotFound(f"execution {execution.id} left no file named {name!r}") from None
        for record in execution.outcome.get("files_out") or []:
            if record.get("name") == wanted:
                data, fault = read_blob(self.blobs, BlobReference(record["sha256"], record["bytes"]))
                if data is None:
                    raise FileUnavailable(
                        f"the bytes of {wanted!r} cannot be served: " + (fault[1] if fault else "no blob store is configured here")
                    )
                return record, data
        raise ExecutionNotFound(f"execution {execution.id} left no file named {wanted!r}")

    def run_files(self, execution_ids: Sequence[str]) -> list[RunFiles]:
        """For the audit report (its caller checked the role): the files of each execution that was
        given or left any, and at most REPORT_THUMBNAILS small images among them as thumbnails."""
        found: list[RunFiles] = []
        shown = 0
        for execution_id in execution_ids:
            try:
                execution = self.store.get(execution_id)
            except ExecutionNotFound:
                continue
            given, left = list(execution.files_in), list(execution.outcome.get("files_out") or [])
            if not given and not left:
                continue
            thumbnails: dict[str, tuple[str, str]] = {}
            for record in left:
                if shown >= REPORT_THUMBNAILS or record.get("bytes", THUMBNAIL_MAX_BYTES + 1) > THUMBNAIL_MAX_BYTES:
                    continue
                data, _ = read_blob(self.blobs, BlobReference(record["sha256"], record["bytes"]))
                media_type = thumbnail_type(record, data) if data is not None else None
                if data is not None and media_type is not None:
                    thumbnails[record["name"]] = (media_type, base64.b64encode(data).decode("ascii"))
                    shown += 1
            found.append(RunFiles(str(execution.id), [dict(item) for item in given], [dict(item) for item in left], thumbnails))
        return found


#: The most thumbnails one audit report inlines (each at most domain.files.THUMBNAIL_MAX_BYTES).
REPORT_THUMBNAILS = 40


class FileUnavailable(CannotVerify):
    """An output file's blob is missing or altered: its loss is reported, its bytes never served."""


__all__ = ["FileQueries", "FileUnavailable", "assess_with_inputs", "keep_outputs", "read_inputs", "store_inputs"]
