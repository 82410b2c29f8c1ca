"""Ledger bundles: a self-contained export (JSON lines) that ``verify_bundle`` checks anywhere,
with no database.

A bundle holds a header (scope, public key, the anchor before its first event), then in ledger
order its events with both hashes (events of other executions redacted to their hashes, and the
predecessor hash of an execution's first exported event), its checkpoints, and before an ending
each output blob the ending names, once; an end line states the counts, so a cut or a spliced
line shows.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TextIO

from mai_safety.ledger.domain.chain import ChainRecord, ChainVerifier, Problem, ProblemKind
from mai_safety.ledger.domain.checkpoint import Checkpoint, CheckpointRule, LedgerVerifier, merge_by_position
from mai_safety.domain.output import BlobReference, blob_sha256, references_in_state

from .blobs import BlobCheck, BlobFault, inspect_blob
from mai_safety.application.errors import CannotVerify, InvalidQuery
from mai_safety.ledger.application.ports import BlobStore, KeyStore, Ledger, PublicKey
from mai_safety.application.reports import VerificationReport
from .sealing import utc_now
from mai_safety.application.topics import BLOB_TOPICS, ENDING_TOPICS, LEDGER_TOPICS
from .verdicts import Audit, execution_id_of, signature_check, verification_report, with_problem

BUNDLE_FORMAT = "mai-safety/ledger-bundle/v1"
#: The header's ``file_bytes`` when the runs' files are named but their bytes left out.
FILE_BYTES_LEFT_OUT = "left_out"
#: A bundle must lie wholly under its checkpoints: the export seals before it writes.
_BUNDLE_RULE = CheckpointRule(every_events=1, every_seconds=float("inf"))


def export_bundle(
    audit: Audit,
    out: TextIO,
    *,
    execution: str | None = None,
    from_position: int | None = None,
    to_position: int | None = None,
    without_file_bytes: bool = False,
) -> VerificationReport:
    """Write a bundle to ``out``; the events are verified as they are written, and the report
    says what was found. The head is sealed first, so the bundle ends under a signature.
    ``without_file_bytes``: the runs' input and output files appear by name and SHA-256 only (in
    their signed events); their bytes are checked in the store but not written, and the header
    says so (``file_bytes: "left_out"``)."""
    ledger = audit.ledger()
    if from_position is not None and from_position > (last := ledger.head().position):
        # Before anything is sealed or written: a bundle of nothing would verify, and say nothing.
        raise InvalidQuery(f"from {from_position} is past the ledger's last position ({last}): nothing to export", "from")
    sealed = ledger.seal("export") if audit.policy is not None else None
    key = audit.public_key(create=False)
    head = ledger.head()
    if to_position is None and sealed is not None and (from_position or 1) <= sealed.position:
        # Up to what was just sealed: events a busy service appends meanwhile wait for the next export.
        to_position = sealed.position
    identifier = execution_id_of(execution) if execution is not None else None
    start, end, _ = audit.walk_range(ledger, head, from_position, to_position, identifier, None)
    verifier = audit.verifier_from(ledger, start, key, mac_valid=audit.mac_check(key, []))
    previous = ledger.checkpoint_before(start) if start > 1 else None
    header: dict[str, Any] = {
        "type": "header",
        "format": BUNDLE_FORMAT,
        "created_at": utc_now().isoformat(timespec="seconds"),
        "scope": {"execution": identifier, "from": start, "to": end},
        "public_key": {"key_id": key.key_id, "pem": key.to_pem()} if key else None,
        "anchor": {"position": start - 1, "ledger_hash": verifier.chain.head[1].hex()},
        "previous_checkpoint": previous.to_dict() if previous else None,
    }
    if without_file_bytes:
        header["file_bytes"] = FILE_BYTES_LEFT_OUT
    _write(out, header)
    writer = _BundleWriter(audit, out, identifier, without_file_bytes)
    for item in merge_by_position(ledger.iter_chain(start - 1, end), audit.checkpoints_between(ledger, head, start, end, reached_head=False)):
        writer.write(item, ledger)
        if isinstance(item, Checkpoint):
            verifier.check_checkpoint(item)
        else:
            verifier.check_record(item)
    _write(out, {"type": "end", **writer.counts})
    verifier.finish(reached_head=False)
    return verification_report(
        verifier,
        {**header["scope"], "exported": writer.counts},
        key,
        head_hash=None,
        extra=writer.blob_check.problems(),
        blobs=writer.blob_check,
    )


class _BundleWriter:
    """Writes a bundle's lines after its header: each event (or its hashes alone, when it is of
    another execution than the one exported), the predecessor of an execution's first event, each
    checkpoint, and before an event each blob it names, once."""

    def __init__(self, audit: Audit, out: TextIO, identifier: str | None, without_file_bytes: bool) -> None:
        self._blobs = audit.blobs
        self._out = out
        self._identifier = identifier
        self._without_file_bytes = without_file_bytes
        self._seen: set[str] = set()
        self.counts = {"events": 0, "redacted": 0, "checkpoints": 0, "blobs": 0}
        # Each blob is read once: what was found while writing it is what the check reports.
        self._exported: dict[BlobReference, BlobFault] = {}
        self.blob_check = BlobCheck(self._exported.get if audit.blobs is not None else None, BLOB_TOPICS)

    def write(self, item: ChainRecord | Checkpoint, ledger: Ledger) -> None:
        out, counts = self._out, self.counts
        if isinstance(item, Checkpoint):
            _write(out, {"type": "checkpoint", **item.to_dict()})
            counts["checkpoints"] += 1
        elif self._identifier is not None and item.originator_id != self._identifier:
            _write(
                out,
                {"type": "redacted", "position": item.position, "event_hash": item.event_hash.hex(), "ledger_hash": item.ledger_hash.hex()},
            )
            counts["redacted"] += 1
        else:
            if item.version > 1 and item.originator_id not in self._seen:
                before = ledger.event_hash_of(item.originator_id, item.version - 1)
                if before is not None:
                    _write(
                        out,
                        {"type": "predecessor", "execution": item.originator_id, "version": item.version - 1, "event_hash": before.hex()},
                    )
            self._seen.add(item.originator_id)
            counts["blobs"] += _write_blobs(self._blobs, out, item, self._exported, self._without_file_bytes)
            self.blob_check.note(item)
            _write(out, _record_line(item))
            counts["events"] += 1


def _write_blobs(
    blobs: BlobStore | None, out: TextIO, record: ChainRecord, exported: dict[BlobReference, BlobFault], without_file_bytes: bool = False
) -> int:
    """Before an ending that names blobs, each of them not yet in the bundle, as the store
    holds it, sound or not (the bundle keeps the evidence; ``exported`` notes what is wrong
    for the export's report). A missing blob is left out. Returns how many were written."""
    if record.topic not in BLOB_TOPICS or record.state is None or blobs is None:
        return 0
    try:
        named = references_in_state(record.state)
    except ValueError:
        return 0  # a malformed reference: the export's blob check reports it
    count = 0
    for stream, reference in named:
        if reference in exported:
            continue
        data, exported[reference] = inspect_blob(blobs, reference)
        if data is not None and not (without_file_bytes and _is_file(stream)):
            _write(out, _blob_line(reference, data))
            count += 1
    return count


def verify_bundle(lines: Iterable[str], keys: KeyStore, public_key: PublicKey | None = None) -> VerificationReport:
    """Check a bundle written by ``LedgerAudit.export`` with no database. The bundle's own public
    key is used unless one is pinned (``public_key``); the report's scope says which."""
    numbered = enumerate(lines, start=1)
    reader = _BundleReader(_parse(next(numbered, (1, ""))[1], 1), keys, public_key)
    for number, line in numbered:
        if line.strip():
            reader.read(_parse(line, number), number)
    return reader.report()


class _BundleReader:
    """One bundle's check, line by line after its header: the chains, the checkpoints, the blobs
    it carries, and at the end whether its end line counts what it holds."""

    def __init__(self, header: dict[str, Any], keys: KeyStore, public_key: PublicKey | None) -> None:
        if header.get("type") != "header" or header.get("format") != BUNDLE_FORMAT:
            raise CannotVerify(f"this is not a mai-safety ledger bundle ({BUNDLE_FORMAT}): check the file")
        try:
            embedded = header.get("public_key")
            key = public_key or (keys.public_key_from_pem(embedded["pem"], "the bundle") if embedded else None)
            anchor_position = int(header["anchor"]["position"])
            anchor_hash = bytes.fromhex(header["anchor"]["ledger_hash"])
            previous = Checkpoint.from_dict(header["previous_checkpoint"]) if header.get("previous_checkpoint") else None
        except (KeyError, TypeError, ValueError) as exc:
            raise CannotVerify(f"the bundle's header is malformed ({type(exc).__name__}: {exc})") from None
        self.header, self.key, self.pinned = header, key, bool(public_key)
        self.predecessors: dict[tuple[str, int], bytes] = {}
        self.signatures: dict[bytes, int] = {}
        chain = ChainVerifier(
            anchor_position,
            anchor_hash,
            predecessor=lambda execution, version: self.predecessors.get((execution, version)),
            known_topics=LEDGER_TOPICS,
            ending_topics=ENDING_TOPICS,
        )
        self.verifier = LedgerVerifier(
            chain,
            trusted_key_id=key.key_id if key else None,
            signature_valid=signature_check(key),
            previous=previous,
            from_start=anchor_position == 0,
            rule=_BUNDLE_RULE,
            same_signature=lambda signature, sequence: (
                self.signatures[signature] if self.signatures.get(signature, sequence) != sequence else None
            ),
        )
        self.counts = {"events": 0, "redacted": 0, "checkpoints": 0, "blobs": 0}
        self.carried: dict[BlobReference, BlobFault] = {}  # the bundle's blobs, checked as they are read
        self.files_left_out = header.get("file_bytes") == FILE_BYTES_LEFT_OUT
        self.blob_check = BlobCheck(
            lambda reference: self.carried.get(reference, _NOT_CARRIED),
            BLOB_TOPICS,
            left_out=(lambda stream, reference: _is_file(stream) and reference not in self.carried) if self.files_left_out else None,
        )
        self.ended: dict[str, Any] | None = None

    def read(self, item: dict[str, Any], number: int) -> None:
        if self.ended is not None:
            raise CannotVerify(f"line {number} of the bundle comes after its end line: the file was altered")
        try:
            self._take(item)
        except (KeyError, TypeError, ValueError) as exc:
            raise CannotVerify(f"line {number} of the bundle is malformed ({type(exc).__name__}: {exc})") from None

    def _take(self, item: dict[str, Any]) -> None:
        kind, verifier, counts = item["type"], self.verifier, self.counts
        if kind == "event":
            record = _record_from_line(item)
            self.blob_check.note(record)
            verifier.check_record(record)
            counts["events"] += 1
        elif kind == "blob":
            reference, fault = _blob_from_line(item)
            self.carried[reference] = fault
            counts["blobs"] += 1
        elif kind == "redacted":
            verifier.check_record(
                ChainRecord(
                    int(item["position"]), "", 0, "", None, bytes.fromhex(item["event_hash"]), bytes.fromhex(item["ledger_hash"])
                )
            )
            counts["redacted"] += 1
        elif kind == "predecessor":
            self.predecessors[(str(item["execution"]), int(item["version"]))] = bytes.fromhex(item["event_hash"])
        elif kind == "checkpoint":
            checkpoint = Checkpoint.from_dict(item)
            verifier.check_checkpoint(checkpoint)
            self.signatures.setdefault(checkpoint.signature, checkpoint.sequence)
            counts["checkpoints"] += 1
        elif kind == "end":
            self.ended = item
        else:
            raise ValueError(f"unknown line type {kind!r}")

    def report(self) -> VerificationReport:
        self.verifier.finish(reached_head=True)
        report = verification_report(
            self.verifier,
            {**self.header.get("scope", {}), "bundle": True, "key_source": "pinned" if self.pinned else "bundle"},
            self.key,
            head_hash=None,
            extra=self.blob_check.problems(),
            notes=[
                "event MACs were not checked: a bundle carries none (they need the private key); every event in it "
                "lies under a signed checkpoint, and each checkpoint since MACs began was signed only over events "
                "whose MACs the service checked"
            ],
        )
        if self.files_left_out:  # by choice, not a fault: said as a note, and in the scope
            report = replace(
                report,
                scope={**report.scope, "file_bytes": FILE_BYTES_LEFT_OUT},
                notes=[
                    *report.notes,
                    f"the files' bytes were left out of this bundle (exported with --without-file-bytes): "
                    f"{len(self.blob_check.left_out)} input or output file(s) are named with their size and SHA-256 in "
                    "the signed events, and everything else was checked, but those bytes could not be",
                ],
            )
        extra = _bundle_completeness(self.ended, self.counts)
        if extra is None:
            return report
        return with_problem(report, extra)


def _bundle_completeness(ended: dict[str, Any] | None, counts: dict[str, int]) -> Problem | None:
    if ended is None:
        return Problem(ProblemKind.TAIL_TRUNCATED, "tail truncated: the bundle has no end line: it was cut short")
    if "blobs" not in ended and not counts["blobs"]:
        counts = {key: value for key, value in counts.items() if key != "blobs"}  # a bundle from before blobs
    stated = {key: ended.get(key) for key in counts}
    if stated != counts:
        return Problem(
            ProblemKind.TAIL_TRUNCATED,
            f"the bundle's end line states {stated} but it holds {counts}: lines were removed or added",
        )
    return None


def _is_file(stream: str) -> bool:
    """Whether a blob an event names is a run's input or output file (domain.output.file_references)."""
    return stream.startswith(("input file ", "output file "))


def _write(out: TextIO, item: dict[str, Any]) -> None:
    out.write(json.dumps(item, separators=(",", ":")) + "\n")


def _parse(line: str, number: int) -> dict[str, Any]:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CannotVerify(f"line {number} of the bundle is not JSON ({exc.msg}): the file is damaged") from None
    if not isinstance(item, dict):
        raise CannotVerify(f"line {number} of the bundle is not a JSON object: the file is damaged")
    return item


def _record_line(record: ChainRecord) -> dict[str, Any]:
    assert record.state is not None
    return {
        "type": "event",
        "position": record.position,
        "execution": record.originator_id,
        "version": record.version,
        "topic": record.topic,
        "state": base64.b64encode(record.state).decode("ascii"),
        "event_hash": record.event_hash.hex(),
        "ledger_hash": record.ledger_hash.hex(),
    }


_NOT_CARRIED: BlobFault = (
    ProblemKind.BLOB_MISSING,
    "blob missing: the bundle does not carry the blob the event names: a line was removed",
)


def _blob_line(reference: BlobReference, data: bytes) -> dict[str, Any]:
    return {"type": "blob", "sha256": reference.sha256, "bytes": reference.size, "data": base64.b64encode(data).decode("ascii")}


def _blob_from_line(item: dict[str, Any]) -> tuple[BlobReference, BlobFault]:
    """The blob a bundle line carries, checked against its own name and size."""
    reference = BlobReference.from_dict({"sha256": item["sha256"], "bytes": item["bytes"]})
    data = base64.b64decode(item["data"], validate=True)
    if len(data) != reference.size or blob_sha256(data) != reference.sha256:
        return reference, (
            ProblemKind.BLOB_MISMATCH,
            f"blob mismatch: the bundle's blob {reference.sha256[:16]}… holds {len(data)} bytes hashing to "
            f"{blob_sha256(data)[:16]}…: it was changed",
        )
    return reference, None


def _record_from_line(item: dict[str, Any]) -> ChainRecord:
    return ChainRecord(
        position=int(item["position"]),
        originator_id=str(item["execution"]),
        version=int(item["version"]),
        topic=str(item["topic"]),
        state=base64.b64decode(item["state"], validate=True),
        event_hash=bytes.fromhex(item["event_hash"]),
        ledger_hash=bytes.fromhex(item["ledger_hash"]),
    )


__all__ = ["BUNDLE_FORMAT", "FILE_BYTES_LEFT_OUT", "export_bundle", "verify_bundle"]
