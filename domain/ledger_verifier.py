"""The ledger verifier: walks records and signed checkpoints together and reports what is wrong.

The chain of event hashes is checked by ``chain.ChainVerifier``; this adds what checkpoints
prove (see ``signed_checkpoint``): each follows the one before, carries the trusted key, signs the
ledger hash the ledger holds at its position, and the ledger reaches every one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from .chain import GENESIS, ChainRecord, ChainVerifier, Problem, ProblemKind
from .checkpoint_rule import CheckpointRule
from .signed_checkpoint import Checkpoint


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


SignatureCheck = Callable[[Checkpoint], bool]
#: Says whether an ending past the newest checkpoint may still be awaiting its deferred seal.
AwaitingSeal = Callable[[ChainRecord], bool]
#: Finds another checkpoint (by sequence) carrying this signature: a replayed one.
SignatureLookup = Callable[[bytes, int], "int | None"]
#: Says whether a record's event MAC is valid (only a holder of the service's key can say).
MacCheck = Callable[[ChainRecord], bool]


@dataclass
class _Anchor:
    """A checkpoint kept outside the ledger, which the ledger must still hold and extend: the
    phrases name where it was kept (``the``: "the checkpoint you kept", ...)."""

    checkpoint: Checkpoint
    the: str
    which: str
    one: str
    witness: bool
    trusted: bool = True
    seen: bool = field(default=False)


def _short(digest: bytes) -> str:
    return digest.hex()[:16]


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
        self._signature_valid = signature_valid
        self._last = previous
        self._from_start = from_start and previous is None
        self._rule = rule
        self._same_signature = same_signature
        self._own: list[Problem] = []
        self._reported: set[int] = set()
        self._verified: dict[Checkpoint, bool] = {}  # whole checkpoints: a signature is valid only with its statement
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
        self.signatures_checked = 0
        self.signatures_unchecked = False
        self._anchors: list[_Anchor] = []
        if kept is not None:
            self._anchors.append(_Anchor(kept, "the checkpoint you kept", "you kept", "the one you kept", witness=False))
        if witnessed is not None:
            self._anchors.append(
                _Anchor(witnessed, f"the checkpoint {witness} recorded", f"{witness} recorded", f"the one {witness} recorded", witness=True)
            )
        for anchor in self._anchors:
            anchor.trusted = self._check_anchor_signature(anchor)
        # Event MACs (docs/decisions/0011).
        self._macs_recorded = macs_recorded
        self._mac_valid = mac_valid
        self._macs_from = previous.macs_from if previous is not None and previous.declares_macs else None
        self._mac_declared_by = previous.sequence if self._macs_from is not None and previous is not None else None
        self._mac_seen = False
        self._pre_mac: list[tuple[int, str, int, str]] = []  # events without a MAC, not yet under a checkpoint
        self._forged_run: list[Problem] = []
        self._forged_last = -1
        self.macs_checked = 0
        self.macs_unchecked = False
        #: Events without a MAC after the newest checkpoint of a ledger no v2 checkpoint has sealed
        #: yet: written by an earlier version; the next seal adopts them. (first, last, count)
        self.pre_mac_tail: tuple[int, int, int] | None = None
        start, start_hash = chain.head
        if previous is not None and previous.position == start and previous.ledger_hash != start_hash:
            self._add(
                previous,
                ProblemKind.CHECKPOINT_MISMATCH,
                f"checkpoint mismatch: #{previous.sequence} signed ledger hash {_short(previous.ledger_hash)}… at "
                f"position {start}, where the checked range starts, but the range starts from {_short(start_hash)}…",
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
            self._check_mac(record)
        for anchor in self._anchors:
            if record.position == anchor.checkpoint.position:
                self._compare_anchor(anchor, record)

    def check_checkpoint(self, checkpoint: Checkpoint) -> None:
        """Call after the record at the checkpoint's position (``merge_by_position`` order)."""
        record = self._last_record
        self._check_checkpoint(checkpoint, record if record is not None and checkpoint.position <= record.position else None)

    def finish(self, *, reached_head: bool) -> "LedgerVerifier":
        """Call once, after ``walk``: checks what can only be judged at the end."""
        if self._segment_tail is not None:
            self._verify(self._segment_tail)
        self._summarise_disagreements()
        if self._pre_mac:
            first, last = self._pre_mac[0][0], self._pre_mac[-1][0]
            self.pre_mac_tail = (first, last, len(self._pre_mac))
        self._close_forged_run()
        head_position = self.chain.head[0]
        if self._beyond:
            beyond = self._beyond[0]
            more = f" ({len(self._beyond) - 1} later checkpoint(s) too)" if len(self._beyond) > 1 else ""
            self._add(
                beyond,
                ProblemKind.TAIL_TRUNCATED,
                f"tail truncated: checkpoint #{beyond.sequence} signed position {beyond.position}, but the ledger ends "
                f"at position {head_position}: the events after it were removed{more}",
                position=head_position,
            )
        for anchor in self._anchors:
            self._finish_anchor(anchor, head_position)
        if reached_head and self._rule is not None:
            self._check_unsigned_tail(head_position)
        return self

    # --- checkpoints --------------------------------------------------------------------------

    def _check_checkpoint(self, checkpoint: Checkpoint, record: ChainRecord | None) -> None:
        self.checkpoints_checked += 1
        last = self._last
        if last is not None and checkpoint.position < last.position:
            self._add(
                checkpoint,
                ProblemKind.CHECKPOINT_REPLAYED,
                f"checkpoint replayed: #{checkpoint.sequence} signs position {checkpoint.position}, before "
                f"#{last.sequence} at {last.position}: an old checkpoint was put back as a new one",
            )
        self._check_sequence_and_link(checkpoint, last)
        if self._trusted_key_id is not None and checkpoint.key_id != self._trusted_key_id:
            self._add(
                checkpoint,
                ProblemKind.BAD_SIGNATURE,
                f"bad signature: signed by key {checkpoint.key_id[:16]}, not by the trusted key {self._trusted_key_id[:16]}",
            )
        for anchor in self._anchors:
            if checkpoint.sequence == anchor.checkpoint.sequence:
                anchor.seen = True
                # A changed signature says more than "differs": check this one's first.
                if checkpoint != anchor.checkpoint and self._verify(checkpoint):
                    self._add(
                        checkpoint,
                        ProblemKind.CHECKPOINT_MISMATCH,
                        f"checkpoint mismatch: the ledger's checkpoint #{checkpoint.sequence} (position {checkpoint.position}) "
                        f"differs from {anchor.one} (position {anchor.checkpoint.position}, signed {anchor.checkpoint.signed_at})",
                    )
        if self._macs_recorded:
            self._checkpoint_macs(checkpoint)
        if record is None:
            self._beyond.append(checkpoint)
        elif checkpoint.position == record.position:
            self._compare(checkpoint, record)
        else:
            self._add(
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
                self._add(checkpoint, ProblemKind.CHECKPOINT_MISSING, f"checkpoint missing: {gone} removed")
        else:
            expected_link = last.link()
            if checkpoint.sequence <= last.sequence:
                self._add(
                    checkpoint,
                    ProblemKind.CHECKPOINT_REPLAYED,
                    f"checkpoint replayed: #{checkpoint.sequence} again after #{last.sequence}",
                )
            elif checkpoint.sequence > last.sequence + 1:
                first, final = last.sequence + 1, checkpoint.sequence - 1
                gone = f"#{first}" if first == final else f"#{first}..#{final}"
                self._add(checkpoint, ProblemKind.CHECKPOINT_MISSING, f"checkpoint missing: {gone} removed")
        if checkpoint.previous == expected_link:
            self._segment_tail = checkpoint
            return
        # The run of checkpoints breaks here: the one before is no longer vouched for by later
        # signatures, so check it on its own; then this one, to say which of the two is wrong.
        if last is not None and self._segment_tail is last:
            self._verify(last)
        if self._verify(checkpoint) and last is not None and self._verify(last):
            self._add(
                checkpoint,
                ProblemKind.CHECKPOINT_MISMATCH,
                f"checkpoint mismatch: #{checkpoint.sequence} does not follow #{last.sequence}: "
                "both are signed, so they come from different histories",
            )
        self._segment_tail = checkpoint

    def _verify(self, checkpoint: Checkpoint) -> bool:
        """Check one signature (once); report a bad one, saying if it was copied from another."""
        key = checkpoint
        if key in self._verified:
            return self._verified[key]
        if self._signature_valid is None:
            self.signatures_unchecked = True
            return True
        self.signatures_checked += 1
        valid = self._signature_valid(checkpoint)
        self._verified[key] = valid
        if not valid:
            original = self._same_signature(checkpoint.signature, checkpoint.sequence) if self._same_signature else None
            if original is not None:
                self._add(
                    checkpoint,
                    ProblemKind.CHECKPOINT_REPLAYED,
                    f"checkpoint replayed: #{checkpoint.sequence} carries the signature of checkpoint #{original}",
                )
            else:
                self._add(
                    checkpoint,
                    ProblemKind.BAD_SIGNATURE,
                    f"bad signature: checkpoint #{checkpoint.sequence}'s signature does not verify with key "
                    f"{checkpoint.key_id[:16]}: the checkpoint or its signature was changed or forged",
                )
        return valid

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
                f"chain fork: checkpoint #{checkpoint.sequence} signed ledger hash {_short(checkpoint.ledger_hash)}… "
                f"at position {record.position}, the ledger now has {_short(record.ledger_hash)}…: the history after "
                f"position {self._agreed_position} was rewritten and its hashes recomputed"
            )
        else:
            kind = ProblemKind.CHECKPOINT_MISMATCH
            message = (
                f"checkpoint mismatch: checkpoint #{checkpoint.sequence} signed ledger hash "
                f"{_short(checkpoint.ledger_hash)}… at this position, the ledger has {_short(record.ledger_hash)}…"
            )
        problem = Problem.at(record, kind, message, checkpoint=checkpoint.sequence)
        self._disagreeing = problem
        if checkpoint.sequence not in self._reported:
            self._reported.add(checkpoint.sequence)
            self._own.append(problem)

    def _summarise_disagreements(self) -> None:
        if self._disagreeing is not None and self._later_disagreements:
            self._own.append(
                Problem(
                    self._disagreeing.kind,
                    f"{self._later_disagreements} later checkpoint(s) disagree with the ledger as well",
                )
            )
        self._disagreeing = None
        self._later_disagreements = 0

    # --- checkpoints kept elsewhere: by the verifier, or by a witness --------------------------

    def _check_anchor_signature(self, anchor: "_Anchor") -> bool:
        kept = anchor.checkpoint

        def refuse(message: str) -> bool:
            self._own.append(Problem(ProblemKind.BAD_SIGNATURE, message, kept.position, checkpoint=kept.sequence))
            return False

        if self._trusted_key_id is not None and kept.key_id != self._trusted_key_id:
            return refuse(
                f"bad signature: {anchor.the} is signed by key {kept.key_id[:16]}, "
                f"not by the trusted key {self._trusted_key_id[:16]}"
            )
        if self._signature_valid is None:
            self.signatures_unchecked = True
            return True
        known = self._verified.get(kept)
        if known is None:
            self.signatures_checked += 1
            known = self._signature_valid(kept)
            if known:  # the ledger's own copy of it need not be checked again
                self._verified[kept] = True
        if not known:
            return refuse(f"bad signature: {anchor.the} does not verify: it was changed, or is not ours")
        return True

    def _compare_anchor(self, anchor: "_Anchor", record: ChainRecord) -> None:
        kept = anchor.checkpoint
        if anchor.trusted and record.ledger_hash != kept.ledger_hash:
            # Not one of the chain's own problems: a fork against the ledger's checkpoints is
            # still told apart from a broken chain.
            self._own.append(
                Problem.at(
                    record,
                    ProblemKind.CHAIN_FORK,
                    f"chain fork: the ledger no longer extends {anchor.the} (#{kept.sequence}): "
                    f"it signed {_short(kept.ledger_hash)}… here, the ledger has {_short(record.ledger_hash)}…",
                    checkpoint=kept.sequence,
                )
            )

    def _finish_anchor(self, anchor: "_Anchor", head_position: int) -> None:
        kept = anchor.checkpoint
        if not anchor.trusted:
            return
        if kept.position > head_position:
            if anchor.witness:
                kind = ProblemKind.LEDGER_BEHIND_WITNESS
                message = (
                    f"ledger behind witness: the ledger ends at position {head_position}, before {anchor.the} "
                    f"(#{kept.sequence} at position {kept.position}, signed {kept.signed_at}): its tail was cut off "
                    "with its checkpoints, or an older copy of the ledger was put back"
                )
            else:
                kind = ProblemKind.TAIL_TRUNCATED
                message = (
                    f"tail truncated: the ledger ends at position {head_position}, before {anchor.the} "
                    f"(#{kept.sequence} at position {kept.position}): events were removed"
                )
            self._own.append(Problem(kind, message, position=head_position, checkpoint=kept.sequence))
        elif not anchor.seen:
            newest = f" (its newest is #{self.newest.sequence})" if self.newest else ""
            if anchor.witness:
                kind = ProblemKind.LEDGER_BEHIND_WITNESS
                message = (
                    f"ledger behind witness: the ledger no longer holds checkpoint #{kept.sequence}, which "
                    f"{anchor.which}{newest}: checkpoints were removed, or an older copy of the ledger was put back"
                )
            else:
                kind = ProblemKind.CHECKPOINT_MISSING
                message = f"checkpoint missing: the ledger no longer holds checkpoint #{kept.sequence}, which {anchor.which}{newest}"
            self._own.append(Problem(kind, message, position=kept.position, checkpoint=kept.sequence))

    # --- event MACs ---------------------------------------------------------------------------

    def _check_mac(self, record: ChainRecord) -> None:
        if record.mac is not None:
            self._mac_seen = True
            if self._mac_valid is None:
                self.macs_unchecked = True
            else:
                self.macs_checked += 1
                if not self._mac_valid(record):
                    self._forged(
                        record,
                        "forged event: its MAC does not verify: it was written by someone without the service's key, "
                        "or its position, ids or hashes were changed",
                    )
            return
        if self._macs_from is not None:
            if record.position >= self._macs_from:
                self._forged(
                    record,
                    f"forged event: it carries no MAC, but every event from position {self._macs_from} does "
                    f"(checkpoint #{self._mac_declared_by} declares it): inserted by someone without the service's key",
                )
            return
        if self._mac_seen:
            self._forged(
                record,
                "forged event: it carries no MAC, after events that do: inserted by someone without the service's key",
            )
            return
        self._pre_mac.append((record.position, record.originator_id, record.version, record.event_name))

    def _checkpoint_macs(self, checkpoint: Checkpoint) -> None:
        if checkpoint.declares_macs:
            if self._macs_from is None:
                self._macs_from = checkpoint.macs_from
                self._mac_declared_by = checkpoint.sequence
                for position, execution, version, event in self._pre_mac:
                    if self._macs_from is not None and position >= self._macs_from:
                        self._forged(
                            Problem(ProblemKind.FORGED_EVENT, "", position, execution, version, event),
                            f"forged event: it carries no MAC, but checkpoint #{checkpoint.sequence} declares one on every "
                            f"event from position {self._macs_from}: inserted by someone without the service's key",
                        )
                self._pre_mac.clear()
            elif checkpoint.macs_from != self._macs_from:
                self._add(
                    checkpoint,
                    ProblemKind.CHECKPOINT_MISMATCH,
                    f"checkpoint mismatch: #{checkpoint.sequence} declares event MACs from position {checkpoint.macs_from}, "
                    f"#{self._mac_declared_by} before it from {self._macs_from}",
                )
            return
        if self._macs_from is not None:
            self._add(
                checkpoint,
                ProblemKind.CHECKPOINT_MISMATCH,
                f"checkpoint mismatch: #{checkpoint.sequence} has the encoding from before event MACs (v1), after "
                f"#{self._mac_declared_by} declared them: written by an older mai-safety still running, or put back",
            )
            return
        # A checkpoint from before MACs covers the events without one up to its position.
        self._pre_mac = [item for item in self._pre_mac if item[0] > checkpoint.position]

    def _forged(self, where: ChainRecord | Problem, message: str) -> None:
        """Report a forged event; a run of consecutive ones is one problem with a count."""
        if isinstance(where, Problem):
            problem = Problem(ProblemKind.FORGED_EVENT, message, where.position, where.execution, where.version, where.event)
        else:
            problem = Problem.at(where, ProblemKind.FORGED_EVENT, message)
        position = problem.position if problem.position is not None else -2
        if self._forged_run and position == self._forged_last + 1:
            self._forged_run.append(problem)
        else:
            self._close_forged_run()
            self._forged_run = [problem]
        self._forged_last = position

    def _close_forged_run(self) -> None:
        run, self._forged_run = self._forged_run, []
        if not run:
            return
        first = run[0]
        if len(run) > 1:
            first = Problem(
                first.kind,
                f"{first.message} (and the {len(run) - 1} event(s) after it, to position {run[-1].position})",
                first.position,
                first.execution,
                first.version,
                first.event,
            )
        self._own.append(first)

    # --- the unsigned tail --------------------------------------------------------------------

    def _check_unsigned_tail(self, head_position: int) -> None:
        assert self._rule is not None
        # The furthest position any checkpoint signs: a replayed old one must not hide the rest.
        newest = max((self.newest, self._last, self._furthest), key=lambda cp: cp.position if cp else -1)
        covered = newest.position if newest else 0
        where = f"the newest checkpoint (#{newest.sequence}) signs position {covered}" if newest else "no checkpoint exists"
        ending = self.chain.last_ending
        if ending is not None and ending.position > covered:
            if self._awaiting_seal is not None and self._awaiting_seal(ending):
                self.awaiting_seal = ending
                return
            self._own.append(
                Problem.at(
                    ending,
                    ProblemKind.NOT_COVERED,
                    f"not covered: this execution ended here but {where}; every ending is sealed when it is "
                    "recorded or soon after, so later checkpoints were removed, this event was forged, or the "
                    "service stopped before sealing it (its next start seals what verifies)",
                )
            )
        elif head_position - covered >= self._rule.every_events:
            self._own.append(
                Problem(
                    ProblemKind.NOT_COVERED,
                    f"not covered: {head_position - covered} events after position {covered} carry no signature "
                    f"({where}; the policy seals every {self._rule.every_events}): checkpoints were removed",
                    position=covered + 1,
                )
            )

    # --- results ------------------------------------------------------------------------------

    def _add(self, checkpoint: Checkpoint, kind: ProblemKind, message: str, position: int | None = None) -> None:
        if checkpoint.sequence in self._reported:
            return  # one problem per checkpoint: the first found is the most telling
        self._reported.add(checkpoint.sequence)
        self._own.append(
            Problem(kind, message, checkpoint.position if position is None else position, checkpoint=checkpoint.sequence)
        )

    @property
    def problems(self) -> list[Problem]:
        return sorted(
            [*self.chain.problems, *self._own],
            key=lambda problem: (problem.position if problem.position is not None else 1 << 62),
        )

    @property
    def intact(self) -> bool:
        return not self.chain.problems and not self._own and not self._forged_run
