"""Verification of the ledger, and the audit's commands and queries over one ledger.

``LedgerAudit`` walks the ledger (all of it, a range, or one execution and what lies between it
and the checkpoint that covers it) and its checkpoints together (domain.checkpoint), checks every
output blob an ending names (in the store, hashing to its name: docs/decisions/0014), the event
MACs where the private key is at hand, and the ledger against the newest checkpoint the witnesses
hold (docs/decisions/0011). It also fronts the sealing (application.sealing), forensic replay
(application.replay) and the export of bundles (application.bundles), so that the application
and the CLI's ``audit`` commands hold one object per ledger.

See docs/decisions/0007-signed-checkpoints.md, 0008-append-only-ledger-and-retention.md and
0011-event-macs-and-witnesses.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, TextIO
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent

from mai_safety.ledger.domain.chain import GENESIS, ChainRecord, ChainVerifier, EventMac, Problem, ProblemKind
from mai_safety.ledger.domain.checkpoint import Checkpoint, LedgerVerifier, MacCheck

from .blobs import BlobCheck, store_lookup
from .bundles import export_bundle
from mai_safety.application.errors import CannotVerify, ConfigurationError, ExecutionNotFound
from mai_safety.ledger.application.ports import BlobStore, Ledger, LedgerHead, PublicKey, WitnessedCheckpoint
from .replay import replay_execution
from mai_safety.application.reports import ReplayReport, VerificationReport
from .sealing import Clock, LedgerPolicy, LedgerSeals, utc_now
from mai_safety.application.topics import BLOB_TOPICS, ENDING_TOPICS, LEDGER_TOPICS
from .verdicts import execution_id_of, signature_check, verification_report, with_problem

#: How long a committed checkpoint may take to reach the witnesses before verify says one lags.
WITNESS_GRACE_SECONDS = 30.0


class LedgerAudit:
    """The audit's commands and queries over one ledger. Built by the application; the CLI's
    ``audit`` commands call it. ``policy`` is None only where nothing is sealed (bare unit tests)."""

    def __init__(
        self,
        ledger: object,
        mapper: Mapper[UUID] | None,
        policy: LedgerPolicy | None,
        *,
        blobs: BlobStore | None = None,
        clock: Clock = utc_now,
        seals: LedgerSeals | None = None,
    ) -> None:
        """``seals``: the sealing the ledger's factory built with its recorder (none: this audit
        seals nothing, as on a ledger opened only to be read)."""
        self._ledger = ledger if isinstance(ledger, Ledger) else None
        self.blobs = blobs
        self._mapper = mapper
        self.policy = policy
        self._clock = clock
        self._witnesses = policy.witnesses if policy is not None else None
        self._seals = seals if self._ledger is not None else None

    def ledger_id(self) -> str | None:
        """What names this ledger to its witnesses (sealing.LedgerSeals.ledger_id)."""
        return self._seals.ledger_id() if self._seals is not None else None

    # --- sealing endings (application.sealing; the recorder asks its sealer as it appends) --------

    def flush(self, witness_timeout: float = 5.0) -> None:
        """Seal every ending still owed a checkpoint now, rather than within the policy's bound,
        and wait (a bounded time) for the witnesses to record the checkpoints made so far."""
        if self._seals is not None:
            self._seals.flush(witness_timeout)

    def close(self) -> None:
        """Seal every ending still owed a checkpoint (the service is stopping), and give the
        witnesses a last, bounded, chance to record them."""
        if self._seals is not None:
            self._seals.close()

    def seal_left_behind(self) -> Checkpoint | None:
        """At start: seal endings a stopped process left without their checkpoint, if the events
        after the newest checkpoint verify. What does not verify is left unsealed, for ``verify``
        to report. Returns the checkpoint made, if any."""
        return self._seals.seal_left_behind(self._awaiting_seal) if self._seals is not None else None

    def _awaiting_seal(self, ending: ChainRecord) -> bool:
        """Whether this ending is young enough to be awaiting its deferred checkpoint."""
        if self.policy is None or self.policy.rule.seals_endings_at_once:
            return False
        try:
            ended_at = self.decode(ending).timestamp
        except Exception:  # noqa: BLE001 - an unreadable ending is not one awaiting anything
            return False
        age = (self._clock() - ended_at).total_seconds()
        return bool(-self.policy.rule.seal_margin <= age <= self.policy.rule.unsealed_ending_grace)

    # --- keys and checkpoints -------------------------------------------------------------------

    def public_key(self, *, create: bool = True) -> PublicKey | None:
        """The service's public key; with ``create`` the key pair is made if there is none yet."""
        if self.policy is None:
            return None
        return self.policy.keys.signer().public_key if create else self.policy.keys.public_key()

    def checkpoint(self, *, seal: bool = True) -> Checkpoint | None:
        """The newest checkpoint, after sealing the head if it is not yet covered. Raises
        LedgerTampered when the head cannot be sealed because the ledger holds an event that does
        not verify (docs/decisions/0011)."""
        ledger = self.ledger()
        if seal and self._seals is not None:
            return self._seals.seal_head()
        return ledger.head().checkpoint

    def hashes_of(self, execution_id: str) -> dict[int, dict[str, Any]]:
        """Per version of that execution's events: its ledger position and both chain hashes (hex)."""
        if self._ledger is None:
            return {}
        return {
            record.version: {
                "position": record.position,
                "event_hash": record.event_hash.hex(),
                "ledger_hash": record.ledger_hash.hex(),
            }
            for record in self._ledger.select_execution(execution_id)
        }

    def protection(self) -> dict[str, Any] | None:
        """Whether the database itself refuses changes to the ledger (None where it cannot)."""
        return self.ledger().protection()

    def ledger_file(self) -> Any:
        """The ledger's file (a ``pathlib.Path``) where it is one (SQLite), else None."""
        return self.ledger().file_path()

    # --- verification ---------------------------------------------------------------------------

    def verify(
        self,
        *,
        from_position: int | None = None,
        to_position: int | None = None,
        execution: str | None = None,
        kept: Checkpoint | None = None,
        public_key: PublicKey | None = None,
    ) -> VerificationReport:
        ledger = self.ledger()
        key = public_key or self.public_key(create=False)
        whole = from_position is None and to_position is None and execution is None
        notes: list[str] = []
        problems: list[Problem] = []
        # The witnesses first: a checkpoint committed meanwhile is then in the ledger's snapshot too.
        witnessed = self._newest_witnessed(key, notes, problems) if whole else None
        head = ledger.head()
        if whole:
            self._witness_lag(head, witnessed, notes)
        anchor = witnessed.checkpoint if witnessed is not None else None
        start, end, reached_head = self.walk_range(ledger, head, from_position, to_position, execution, kept, anchor)
        verifier = self.verifier_from(
            ledger,
            start,
            key,
            kept=kept,
            witnessed=witnessed,
            mac_valid=self.mac_check(key, notes),
        )
        blob_check = self._blob_check()
        records = blob_check.tap(ledger.iter_chain(start - 1, end))
        verifier.walk(records, self.checkpoints_between(ledger, head, start, end, reached_head))
        verifier.finish(reached_head=reached_head)
        problems.extend(blob_check.problems())
        scope = {"from": start, "to": end, "execution": execution, "reached_head": reached_head}
        if kept is not None:
            scope["kept_checkpoint"] = kept.sequence
        if verifier.macs_unchecked:
            notes.insert(
                0,
                "event MACs were not checked: that needs the private key, which this machine does not hold; "
                "the chains and the signatures were, and every checkpoint since MACs began was signed only "
                "over events whose MACs the service checked",
            )
        if verifier.pre_mac_tail is not None:
            first, last, count = verifier.pre_mac_tail
            notes.append(
                f"{count} event(s) at positions {first}..{last}, after the newest checkpoint, carry no MAC: written by a "
                "version from before event MACs; the next seal adopts them, and from then on every event needs one"
            )
        return verification_report(
            verifier,
            scope,
            key,
            head_hash=head.ledger_hash if reached_head else None,
            notes=notes,
            extra=problems,
            witnessed=witnessed,
            blobs=blob_check,
        )

    def _blob_check(self) -> BlobCheck:
        return BlobCheck(store_lookup(self.blobs) if self.blobs is not None else None, BLOB_TOPICS)

    def mac_check(self, key: PublicKey | None, notes: list[str]) -> MacCheck | None:
        """Event MACs are checked where the private key is at hand (and is the trusted key)."""
        if self.policy is None:
            return None
        signer = self.policy.keys.signer_if_present()
        if signer is None or key is None or signer.public_key.key_id != key.key_id:
            return None
        return EventMac(signer.mac_key()).valid

    def _newest_witnessed(
        self, key: PublicKey | None, notes: list[str], problems: list[Problem]
    ) -> WitnessedCheckpoint | None:
        """The newest checkpoint of this ledger a witness holds with a valid signature; entries
        for this ledger that do not verify are problems (someone else wrote the witness)."""
        witnesses = self._witnesses
        ledger_id = self.ledger_id()
        if witnesses is None or ledger_id is None:
            return None
        found = sorted(witnesses.recorded(ledger_id), key=lambda item: item.checkpoint.sequence, reverse=True)
        newest: WitnessedCheckpoint | None = None
        for item in found:
            checkpoint = item.checkpoint
            if key is not None and (checkpoint.key_id != key.key_id or not key.verify(checkpoint.message(), checkpoint.signature)):
                problems.append(
                    Problem(
                        ProblemKind.BAD_SIGNATURE,
                        f"bad signature: {item.witness} holds a checkpoint #{checkpoint.sequence} for this ledger that "
                        "does not verify: the witness was written by someone else",
                        checkpoint.position,
                        checkpoint=checkpoint.sequence,
                    )
                )
                continue
            newest = item
            break
        notes.extend(f"witness {failure}" for failure in witnesses.failures(ledger_id))
        location = self.ledger().location()
        others = witnesses.other_ledgers_at(location, ledger_id)
        if others:
            notes.append(
                f"a witness recorded checkpoints of {len(others)} other ledger(s) at {location} "
                f"({', '.join(other[:16] for other in others)}…): this ledger replaced one, or shares its place"
            )
        return newest

    def _witness_lag(self, head: LedgerHead, newest: WitnessedCheckpoint | None, notes: list[str]) -> None:
        witnesses = self._witnesses
        if witnesses is None or not witnesses.readable() or self.ledger_id() is None:
            return
        ours = head.checkpoint
        if ours is not None and (newest is None or ours.sequence > newest.checkpoint.sequence):
            signed = ours.signed_time
            age = (self._clock() - signed).total_seconds() if signed is not None and signed.tzinfo else None
            if age is None or age > WITNESS_GRACE_SECONDS:
                held = f"the newest it holds is #{newest.checkpoint.sequence}" if newest else "it holds none of this ledger"
                notes.append(
                    f"the witnesses have not recorded checkpoint #{ours.sequence} ({held}): a witness write failed, "
                    "or the checkpoints were made where no witness is configured"
                )

    def walk_range(
        self,
        ledger: Ledger,
        head: LedgerHead,
        from_position: int | None,
        to_position: int | None,
        execution: str | None,
        kept: Checkpoint | None,
        witnessed: Checkpoint | None = None,
    ) -> tuple[int, int, bool]:
        """Where the walk starts and ends: it always runs on to the checkpoint covering its end."""
        if execution is not None:
            records = ledger.select_execution(execution_id_of(execution))
            if not records:
                raise ExecutionNotFound(f"no execution {execution} in this ledger: check the id")
            start = min(record.position for record in records)
            end = max(record.position for record in records)
        else:
            start = from_position if from_position is not None else 1
            end = to_position if to_position is not None else head.position
            if start < 1 or end < 0:
                raise CannotVerify("--from and --to are ledger positions, counted from 1")
            if to_position is not None and end < start:
                raise CannotVerify(f"--from {start} is after --to {end}: nothing to check")
        end = min(end, head.position)
        for anchor in (kept, witnessed):
            if anchor is not None:
                end = max(end, min(anchor.position, head.position))
        if end < head.position:
            cover = ledger.checkpoint_covering(end)
            newest = head.checkpoint.sequence if head.checkpoint else 0
            if cover is not None and cover.sequence <= newest:
                end = min(max(end, cover.position), head.position)
        return start, end, end >= head.position

    @staticmethod
    def checkpoints_between(ledger: Ledger, head: LedgerHead, start: int, end: int, reached_head: bool) -> Iterable[Checkpoint]:
        newest = head.checkpoint.sequence if head.checkpoint else 0
        for checkpoint in ledger.iter_checkpoints(from_position=start, up_to_sequence=newest):
            if reached_head or checkpoint.position <= end:
                yield checkpoint

    def verifier_from(
        self,
        ledger: Ledger,
        start: int,
        key: PublicKey | None,
        *,
        kept: Checkpoint | None = None,
        witnessed: WitnessedCheckpoint | None = None,
        mac_valid: MacCheck | None = None,
    ) -> LedgerVerifier:
        anchor = GENESIS
        missing_anchor = False
        if start > 1:
            found = ledger.ledger_hash_at(start - 1)
            missing_anchor = found is None
            anchor = found or GENESIS
        chain = ChainVerifier(
            start - 1,
            anchor,
            predecessor=ledger.event_hash_of if start > 1 else None,
            known_topics=LEDGER_TOPICS,
            ending_topics=ENDING_TOPICS,
        )
        if missing_anchor:
            chain.problems.append(
                Problem(
                    ProblemKind.MISSING_POSITION,
                    f"missing position: {start - 1}, the event before the checked range, is not in the ledger",
                    start - 1,
                )
            )
        return LedgerVerifier(
            chain,
            trusted_key_id=key.key_id if key else None,
            signature_valid=signature_check(key),
            previous=ledger.checkpoint_before(start) if start > 1 else None,
            from_start=start == 1,
            rule=self.policy.rule if self.policy is not None else None,
            kept=kept,
            same_signature=ledger.checkpoint_with_signature,
            awaiting_seal=self._awaiting_seal,
            witnessed=witnessed.checkpoint if witnessed is not None else None,
            witness=witnessed.witness if witnessed is not None else "the witness",
            macs_recorded=True,
            mac_valid=mac_valid,
        )

    # --- forensic replay (application.replay) ------------------------------------------------------------------------

    def replay(self, execution_id: str, as_of: datetime | None = None) -> ReplayReport:
        """One execution rebuilt from its verified events, as of any moment (application.replay)."""
        return replay_execution(self, execution_id, as_of)

    def decode(self, record: ChainRecord) -> Any:
        assert self._mapper is not None and record.state is not None
        stored = StoredEvent(
            originator_id=UUID(record.originator_id),
            originator_version=record.version,
            topic=record.topic,
            state=record.state,
        )
        return self._mapper.to_domain_event(stored)

    # --- export (application.bundles) ---------------------------------------------------------

    def export(
        self,
        out: TextIO,
        *,
        execution: str | None = None,
        from_position: int | None = None,
        to_position: int | None = None,
        without_file_bytes: bool = False,
    ) -> VerificationReport:
        """Write a bundle to ``out`` (bundles.export_bundle): verified as it is written, under a
        signature at its end."""
        return export_bundle(
            self, out, execution=execution, from_position=from_position, to_position=to_position, without_file_bytes=without_file_bytes
        )

    # --- retention ------------------------------------------------------------------------------

    def archive_plan(self, after_position: int, older_than: datetime) -> Checkpoint | None:
        """The newest checkpoint signed before ``older_than`` past ``after_position``: the end of
        the next range to archive (None when there is nothing old enough yet)."""
        ledger = self.ledger()
        best: Checkpoint | None = None
        for checkpoint in ledger.iter_checkpoints(from_position=after_position + 1):
            if datetime.fromisoformat(checkpoint.signed_at) >= older_than:
                break
            best = checkpoint
        return best

    def ledger(self) -> Ledger:
        if self._ledger is None:
            raise ConfigurationError("this event store keeps no chain hashes: use the SQLite or Postgres ledger")
        return self._ledger


__all__ = ["LedgerAudit", "WITNESS_GRACE_SECONDS", "execution_id_of", "signature_check", "verification_report", "with_problem"]
