"""Run output kept as blobs beside the ledger (docs/decisions/0014): stored before the event that
names it, read back whole for history, reports and replay, and checked by the audit.

Every reader takes an outcome without a ``*_blob`` key to hold its output inline (events from
before blobs), and never serves bytes that do not hash to the name the event gives them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast

from mai_safety.ledger.domain.chain import ChainRecord, Problem, ProblemKind
from mai_safety.domain.payloads import OutcomeRecord
from mai_safety.domain.output import (
    OUTPUT_STREAMS,
    BlobReference,
    MalformedReference,
    blob_key,
    blob_sha256,
    references,
    references_in_state,
    split_output,
)

from mai_safety.ledger.application.ports import BlobStore, BlobTooLarge

#: What is wrong with a blob an event names (its kind and a sentence), or None when it is sound.
BlobFault = tuple[ProblemKind, str] | None


def keep_output(outcome: OutcomeRecord, blobs: BlobStore | None, inline_bytes: int) -> OutcomeRecord:
    """The outcome to record. Each stream longer than ``inline_bytes`` is stored as a blob first
    (committed when ``put`` returns, so no event ever names a blob that is not there), and the
    outcome keeps its preview and a reference instead. Without a blob store, all stays inline."""
    if blobs is None:
        return outcome
    kept: dict[str, Any] = dict(outcome)
    for stream in OUTPUT_STREAMS:
        text = kept.get(stream)
        if not isinstance(text, str):
            continue
        preview, data = split_output(text, inline_bytes)
        if data is None:
            continue
        kept[blob_key(stream)] = BlobReference(blobs.put(data), len(data)).to_dict()
        kept[stream] = preview
    return cast(OutcomeRecord, kept)


def inspect_blob(blobs: BlobStore, reference: BlobReference) -> tuple[bytes | None, BlobFault]:
    """The bytes stored under a reference's name, read only up to the size it names (None when
    there are none or more), and what is wrong with them, if anything."""
    short = f"{reference.sha256[:16]}… ({reference.size} bytes)"
    try:
        data = blobs.get(reference.sha256, reference.size)
    except BlobTooLarge as exc:
        return None, (ProblemKind.BLOB_MISMATCH, f"blob mismatch: blob {short} holds {exc.size} bytes: it was changed")
    if data is None:
        return None, (ProblemKind.BLOB_MISSING, f"blob missing: blob {short} is not in the blob store: it was removed")
    if len(data) != reference.size or blob_sha256(data) != reference.sha256:
        return data, (
            ProblemKind.BLOB_MISMATCH,
            f"blob mismatch: blob {short} holds {len(data)} bytes hashing to {blob_sha256(data)[:16]}…: it was changed",
        )
    return data, None


def read_blob(blobs: BlobStore | None, reference: BlobReference) -> tuple[bytes | None, BlobFault]:
    """The bytes a reference names if the store holds exactly them; otherwise None and why not
    (None and no fault: there is no blob store here)."""
    if blobs is None:
        return None, None
    data, fault = inspect_blob(blobs, reference)
    return (data, None) if fault is None else (None, fault)


def with_full_output(outcome: OutcomeRecord, blobs: BlobStore | None) -> OutcomeRecord:
    """The outcome with each stream kept as a blob read back whole. A blob that is missing or
    altered is not served: the preview stays, and its reference says ``unavailable`` and why."""
    try:
        named = references(outcome)
    except MalformedReference:
        return outcome
    if not named:
        return outcome
    full: dict[str, Any] = dict(outcome)
    for stream, reference in named:
        data, fault = read_blob(blobs, reference)
        if data is not None:
            full[stream] = data.decode("utf-8", errors="replace")
        else:
            why = fault[1] if fault is not None else "no blob store is configured here"
            full[blob_key(stream)] = {**reference.to_dict(), "unavailable": why}
    return cast(OutcomeRecord, full)


class BlobCheck:
    """Checks the blobs named by the ending events a walk passes: ``tap`` lets the records through
    and notes each reference (not the state: an old ending may hold megabytes inline);
    ``problems`` then looks each distinct blob up once with ``lookup`` and reports, for every
    event naming a blob that is missing or altered, where it is. ``lookup`` None: nothing can
    be checked here, and ``unchecked`` counts the references seen."""

    def __init__(
        self,
        lookup: Callable[[BlobReference], BlobFault] | None,
        ending_topics: frozenset[str],
        left_out: Callable[[str, BlobReference], bool] | None = None,
    ) -> None:
        """``left_out(stream, reference)``: True for a blob left out on purpose (a bundle exported
        without the files' bytes): not looked up, counted in ``left_out`` instead."""
        self._lookup = lookup
        self._ending_topics = ending_topics
        self._left_out = left_out
        self.left_out: set[BlobReference] = set()
        self._named: list[tuple[ChainRecord, str, BlobReference]] = []
        self._malformed: list[Problem] = []
        self.unchecked = 0

    def tap(self, records: Iterable[ChainRecord]) -> Iterator[ChainRecord]:
        for record in records:
            self.note(record)
            yield record

    def note(self, record: ChainRecord) -> None:
        if record.state is None or record.topic not in self._ending_topics:
            return
        where = record._replace(state=b"")  # enough to name it in a problem
        try:
            named = references_in_state(record.state)
        except MalformedReference as exc:
            self._malformed.append(Problem.at(where, ProblemKind.BLOB_MISMATCH, f"blob mismatch: malformed reference: {exc}"))
            return
        self._named.extend((where, stream, reference) for stream, reference in named)

    @property
    def blobs_named(self) -> int:
        return len({reference for _, _, reference in self._named})

    def problems(self) -> list[Problem]:
        if self._lookup is None:
            self.unchecked = len(self._named)
            return list(self._malformed)
        faults: dict[BlobReference, BlobFault] = {}
        found = list(self._malformed)
        for where, stream, reference in self._named:
            if self._left_out is not None and self._left_out(stream, reference):
                self.left_out.add(reference)
                continue
            if reference not in faults:
                faults[reference] = self._lookup(reference)
            fault = faults[reference]
            if fault is not None:
                kind, message = fault
                found.append(Problem.at(where, kind, f"{message} (the event's {stream})"))
        return found


def store_lookup(blobs: BlobStore) -> Callable[[BlobReference], BlobFault]:
    """Looks a reference up in a blob store: what ``BlobCheck`` needs of the database."""
    return lambda reference: read_blob(blobs, reference)[1]


__all__ = ["BlobCheck", "BlobFault", "inspect_blob", "keep_output", "read_blob", "store_lookup", "with_full_output"]
