"""The ledger verifier: walks records and signed checkpoints together and reports what is wrong.

The chain of event hashes is checked by ``chain.ChainVerifier``; this adds what checkpoints
prove (see ``signed_checkpoint``): each follows the one before, carries the trusted key, signs the
ledger hash the ledger holds at its position, and the ledger reaches every one of them. Its parts
live beside it: ``checkpoint_signatures``, ``kept_checkpoints``, ``event_mac_checks``, and the
shared ``verification_problems`` log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .chain import GENESIS, ChainRecord, ChainVerifier, Problem, ProblemKind
from .checkpoint_rule import CheckpointRule
from .checkpoint_signatures import CheckpointSignatures, SignatureCheck, SignatureLookup
from .event_mac_checks import EventMacChecks, MacCheck
from .kept_checkpoints import KeptCheckpoints
from .signed_checkpoint import Checkpoint
from .verification_problems import ProblemLog, short_digest

__all__ = [
    "AwaitingSeal",
    "LedgerVerifier",
    "MacCheck",
    "SignatureCheck",
    "SignatureLookup",
    "merge_by_position",
]


def merge_by_position(
    records: Iterable[ChainRecord], checkpoints: Iterable[Checkpoint]
) -> Iterator[ChainRecord | Checkpoint]:
    """Records in ledger order, each checkpoint right after the record it signs (or at the end,
    for checkpoints past the last record). Checkpoints come in sequence order."""
    pending = iter(checkpoints)
    checkpoint = next(pending, None)
    for record in records:
        yield record
        while checkpoint is not None and checkpoint.position <= record.position:
            yield checkpoint
            checkpoint = next(pending, None)
    while checkpoint is not None:
        yield checkpoint
        checkpoint = next(pending, None)


#: Says whether an ending past the newest checkpoint may still be awaiting its deferred seal.
AwaitingSeal = Callable[[ChainRecord], bool]


class LedgerVerifier:
    """Walks the ledger's records and checkpoints together, in ledger order.

    The chain itself is checked by ``chain`` (a ChainVerifier). On top, each checkpoint must follow
    the one before (sequence and link), carry the trusted key, and sign the ledger hash that the
    ledger holds at its position; checkpoints past the last record mean the tail was cut off.
    ``signature_valid`` is None when no public key is at hand: then signatures are left unchecked
    and ``signatures_unchecked`` says so. ``kept`` is a checkpoint the verifier saved earlier: the
    ledger must still extend it. ``rule`` (with ``reached_head``) checks the unsigned tail: no
    ended execution and fewer than ``every_events`` events may lie after the newest checkpoint,
    because the service seals in the very transaction that makes either true; an ending that is
    sealed a moment later by design (``CheckpointRule.endings_within``) passes while
    ``awaiting_seal`` says it is young enough to be still awaiting its checkpoint.

    ``witnessed`` is the newest checkpoint a witness recorded (``witness`` names it): like a kept
    one, except that a ledger that does not reach it is ``ledger_behind_witness``. Event MACs
    (``macs_recorded``: the source holds a MAC column) follow the checkpoints' encodings: from a
    v2 checkpoint's ``macs_from`` on every event must carry one (checked when ``mac_valid`` is
    given, i.e. the verifier holds the key); an event without one before any v2 checkpoint is
    from before MACs and must lie under a v1 checkpoint, or before every event that has one.
    """

    def __init__(
        self,
        chain: ChainVerifier,
        *,
        trusted_key_id: str | None,
        signature_valid: SignatureCheck | None,
        previous: Checkpoint | None = None,
        from_start: bool = True,
        rule: CheckpointRule | None = None,
        kept: Checkpoint | None = None,
        same_signature: SignatureLookup | None = None,
        awaiting_seal: AwaitingSeal | None = None,
        witnessed: Checkpoint | None = None,
        witness: str = "the witness",
        macs_recorded: bool = False,
        mac_valid: MacCheck | None = None,
    ) -> None:
        self.chain = chain
        self._awaiting_seal = awaiting_seal
        self._trusted_key_id = trusted_key_id
        self._last = previous
        self._from_start = from_start and previous is None
        self._rule = rule
        self._problems = ProblemLog()
        self._signatures = CheckpointSignatures(signature_valid, same_signature, self._problems)
        #: An ending past the newest checkpoint that is young enough to be awaiting its deferred seal.
        self.awaiting_seal: ChainRecord | None = None
        self._segment_tail: Checkpoint | None = None
        self._agreed_problems = 0
        self._agreed_position = chain.head[0]
        self._disagreeing: Problem | None = None
        self._later_disagreements = 0
        self._beyond: list[Checkpoint] = []
        self._last_record: ChainRecord | None = None
        self._furthest: Checkpoint | None = None
        self.newest: Checkpoint | None = None
        self.checkpoints_checked = 0
        self._kept = KeptCheckpoints(
            kept=kept,
            witnessed=witnessed,
            witness=witness,
            trusted_key_id=trusted_key_id,
            signatures=self._signatures,
            problems=self._problems,
        )
        # Event MACs (docs/decisions/0011).
        self._macs_recorded = macs_recorded
        self._macs = EventMacChecks(previous=previous, mac_valid=mac_valid, problems=self._problems)
        start, start_hash = chain.head
        if previous is not None and previous.position == start and previous.ledger_hash != start_hash:
            self._problems.about_checkpoint(
                previous,
                ProblemKind.CHECKPOINT_MISMATCH,
                f"checkpoint mismatch: #{previous.sequence} signed ledger hash {short_digest(previous.ledger_hash)}… at "
                f"position {start}, where the checked range starts, but the range starts from {short_digest(start_hash)}…",
            )

    # --- the walk -----------------------------------------------------------------------------

    def walk(self, records: Iterable[ChainRecord], checkpoints: Iterable[Checkpoint]) -> "LedgerVerifier":
        for item in merge_by_position(records, checkpoints):
            if isinstance(item, Checkpoint):
                self.check_checkpoint(item)
            else:
                self.check_record(item)
        return self

    def check_record(self, record: ChainRecord) -> None:
        self.chain.check(record)
        self._last_record = record
        if self._macs_recorded and not record.redacted:
            self._macs.check_record(record)
        self._kept.check_record(record)

    def check_checkpoint(self, checkpoint: Checkpoint) -> None:
        """Call after the record at the checkpoint's position (``merge_by_position`` order)."""
        record = self._last_record
        self._check_checkpoint(checkpoint, record if record is not None and checkpoint.position <= record.position else None)

    def finish(self, *, reached_head: bool) -> "LedgerVerifier":
        """Call once, after ``walk``: checks what can only be judged at the end."""
        if self._segment_tail is not None:
            self._signatures.verify(self._segment_tail)
        self._summarise_disagreements()
        self._macs.finish()
        head_position = self.chain.head[0]
        if self._beyond:
            beyond = self._beyond[0]
            more = f" ({len(self._beyond) - 1} later checkpoint(s) too)" if len(self._beyond) > 1 else ""
            self._problems.about_checkpoint(
                beyond,
                ProblemKind.TAIL_TRUNCATED,
                f"tail truncated: checkpoint #{beyond.sequence} signed position {beyond.position}, but the ledger ends "
                f"at position {head_position}: the events after it were removed{more}",
                position=head_position,
            )
        self._kept.finish(head_position, self.newest)
        if reached_head and self._rule is not None:
            self._check_unsigned_tail(head_position)
        return self

    # --- checkpoints --------------------------------------------------------------------------

    def _check_checkpoint(self, checkpoint: Checkpoint, record: ChainRecord | None) -> None:
        self.checkpoints_checked += 1
        last = self._last
        if last is not None and checkpoint.position < last.position:
            self._problems.about_checkpoint(
                checkpoint,
                ProblemKind.CHECKPOINT_REPLAYED,
                f"checkpoint replayed: #{checkpoint.sequence} signs position {checkpoint.position}, before "
                f"#{last.sequence} at {last.position}: an old checkpoint was put back as a new one",
            )
        self._check_sequence_and_link(checkpoint, last)
        if self._trusted_key_id is not None and checkpoint.key_id != self._trusted_key_id:
            self._problems.about_checkpoint(
                checkpoint,
                ProblemKind.BAD_SIGNATURE,
                f"bad signature: signed by key {checkpoint.key_id[:16]}, not by the trusted key {self._trusted_key_id[:16]}",
            )
        self._kept.check_checkpoint(checkpoint)
        if self._macs_recorded:
            self._macs.check_checkpoint(checkpoint)
        if record is None:
            self._beyond.append(checkpoint)
        elif checkpoint.position == record.position:
            self._compare(checkpoint, record)
        else:
            self._problems.about_checkpoint(
                checkpoint,
                ProblemKind.CHECKPOINT_MISMATCH,
                f"checkpoint mismatch: #{checkpoint.sequence} signs position {checkpoint.position}, "
                "which is no longer in the ledger (removed)",
            )
        self._last = checkpoint
        self.newest = checkpoint
        if self._furthest is None or checkpoint.position > self._furthest.position:
            self._furthest = checkpoint

    def _check_sequence_and_link(self, checkpoint: Checkpoint, last: Checkpoint | None) -> None:
        if last is None:
            if not self._from_start:
                self._segment_tail = checkpoint  # a walk from mid-ledger has nothing to link the first one to
                return
            expected_link = GENESIS
            if checkpoint.sequence != 1:
                gone = "#1" if checkpoint.sequence == 2 else f"#1..#{checkpoint.sequence - 1}"
                self._problems.about_checkpoint(checkpoint, ProblemKind.CHECKPOINT_MISSING, f"checkpoint missing: {gone} removed")
        else:
            expected_link = last.link()
            if checkpoint.sequence <= last.sequence:
                self._problems.about_checkpoint(
                    checkpoint,
                    ProblemKind.CHECKPOINT_REPLAYED,
                    f"checkpoint replayed: #{checkpoint.sequence} again after #{last.sequence}",
                )
            elif checkpoint.sequence > last.sequence + 1:
                first, final = last.sequence + 1, checkpoint.sequence - 1
                gone = f"#{first}" if first == final else f"#{first}..#{final}"
                self._problems.about_checkpoint(checkpoint, ProblemKind.CHECKPOINT_MISSING, f"checkpoint missing: {gone} removed")
        if checkpoint.previous == expected_link:
            self._segment_tail = checkpoint
            return
        # The run of checkpoints breaks here: the one before is no longer vouched for by later
        # signatures, so check it on its own; then this one, to say which of the two is wrong.
        if last is not None and self._segment_tail is last:
            self._signatures.verify(last)
        if self._signatures.verify(checkpoint) and last is not None and self._signatures.verify(last):
            self._problems.about_checkpoint(
                checkpoint,
                ProblemKind.CHECKPOINT_MISMATCH,
                f"checkpoint mismatch: #{checkpoint.sequence} does not follow #{last.sequence}: "
                "both are signed, so they come from different histories",
            )
        self._segment_tail = checkpoint

    # --- the ledger hash each checkpoint signs ---------------------------------------------------

    def _compare(self, checkpoint: Checkpoint, record: ChainRecord) -> None:
        if checkpoint.ledger_hash == record.ledger_hash:
            self._summarise_disagreements()
            self._agreed_position = record.position
            self._agreed_problems = len(self.chain.problems)
            return
        if self._disagreeing is not None:
            self._later_disagreements += 1
            return
        if len(self.chain.problems) == self._agreed_problems:
            kind = ProblemKind.CHAIN_FORK
            message = (
                f"chain fork: checkpoint #{checkpoint.sequence} signed ledger hash {short_digest(checkpoint.ledger_hash)}… "
                f"at position {record.position}, the ledger now has {short_digest(record.ledger_hash)}…: the history after "
                f"position {self._agreed_position} was rewritten and its hashes recomputed"
            )
        else:
            kind = ProblemKind.CHECKPOINT_MISMATCH
            message = (
                f"checkpoint mismatch: checkpoint #{checkpoint.sequence} signed ledger hash "
                f"{short_digest(checkpoint.ledger_hash)}… at this position, the ledger has {short_digest(record.ledger_hash)}…"
            )
        problem = Problem.at(record, kind, message, checkpoint=checkpoint.sequence)
        self._disagreeing = problem
        if self._problems.first_about(checkpoint.sequence):
            self._problems.add(problem)

    def _summarise_disagreements(self) -> None:
        if self._disagreeing is not None and self._later_disagreements:
            self._problems.add(
                Problem(
                    self._disagreeing.kind,
                    f"{self._later_disagreements} later checkpoint(s) disagree with the ledger as well",
                )
            )
        self._disagreeing = None
        self._later_disagreements = 0

    # --- the unsigned tail --------------------------------------------------------------------

    def _check_unsigned_tail(self, head_position: int) -> None:
        assert self._rule is not None
        # The furthest position any checkpoint signs: a replayed old one must not hide the rest.
        newest = max((self.newest, self._last, self._furthest), key=lambda cp: cp.position if cp else -1)
        ending = self.chain.last_ending
        if ending is not None and ending.position > (newest.position if newest else 0):
            if self._awaiting_seal is not None and self._awaiting_seal(ending):
                self.awaiting_seal = ending
                return
        problem = self._rule.unsigned_tail_problem(newest=newest, last_ending=ending, head_position=head_position)
        if problem is not None:
            self._problems.add(problem)

    # --- results ------------------------------------------------------------------------------

    @property
    def problems(self) -> list[Problem]:
        return sorted(
            [*self.chain.problems, *self._problems.problems],
            key=lambda problem: (problem.position if problem.position is not None else 1 << 62),
        )

    @property
    def intact(self) -> bool:
        return not self.chain.problems and not self._problems.problems and not self._macs.forged_run_open

    @property
    def signatures_checked(self) -> int:
        return self._signatures.checked

    @property
    def signatures_unchecked(self) -> bool:
        """No public key was at hand, so some signature was left unchecked."""
        return self._signatures.unchecked

    @property
    def macs_checked(self) -> int:
        return self._macs.checked

    @property
    def macs_unchecked(self) -> bool:
        """Some event carries a MAC that could not be checked (no key at hand)."""
        return self._macs.unchecked

    @property
    def pre_mac_tail(self) -> tuple[int, int, int] | None:
        """Events without a MAC after the newest checkpoint of a ledger no v2 checkpoint has sealed
        yet: written by an earlier version; the next seal adopts them. (first, last, count)"""
        return self._macs.pre_mac_tail
