"""Signed checkpoints and the walk that checks them against the chain, with no I/O.

Signatures here are a keyed hash standing in for Ed25519 (the domain only asks whether one is
valid); the real signer is tested in the integration tests.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from mai_safety.ledger.domain.chain import (
    GENESIS,
    ChainRecord,
    ChainVerifier,
    EventMac,
    ProblemKind,
    encode_field,
    event_hash,
    ledger_hash,
)
from mai_safety.ledger.domain.checkpoint import (
    Checkpoint,
    CheckpointRule,
    LedgerVerifier,
    checkpoint_message,
    merge_by_position,
)

KEY_ID = "sha256:test"
NOW = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
RULE = CheckpointRule(every_events=4, every_seconds=60)


def _sign(message: bytes) -> bytes:
    return hashlib.sha256(b"secret" + message).digest() * 2


def _valid(checkpoint: Checkpoint) -> bool:
    return checkpoint.key_id == KEY_ID and checkpoint.signature == _sign(checkpoint.message())


def _ledger(count: int, ending_every: int = 3) -> list[ChainRecord]:
    records, heads, head = [], {}, GENESIS
    for position in range(1, count + 1):
        execution = f"e{(position - 1) // ending_every}"
        version = (position - 1) % ending_every + 1
        topic = "end" if version == ending_every else "step"
        digest = event_hash(heads.get(execution, GENESIS), topic, execution, version, b"{}")
        heads[execution] = digest
        head = ledger_hash(head, position, digest)
        records.append(ChainRecord(position, execution, version, topic, b"{}", digest, head))
    return records


def _seal(records: list[ChainRecord], positions: list[int]) -> list[Checkpoint]:
    checkpoints: list[Checkpoint] = []
    for sequence, position in enumerate(positions, start=1):
        previous = checkpoints[-1].link() if checkpoints else GENESIS
        signed_at = (NOW + timedelta(seconds=sequence)).isoformat()
        head = records[position - 1].ledger_hash
        message = checkpoint_message(sequence, position, head, signed_at, "test", KEY_ID, previous)
        checkpoints.append(Checkpoint(sequence, position, head, signed_at, "test", KEY_ID, previous, _sign(message)))
    return checkpoints


def _verify(
    records: list[ChainRecord],
    checkpoints: list[Checkpoint],
    *,
    kept: Checkpoint | None = None,
    signed: bool = True,
    awaiting_seal: Callable[[ChainRecord], bool] | None = None,
) -> LedgerVerifier:
    chain = ChainVerifier(ending_topics=frozenset({"end"}))
    verifier = LedgerVerifier(
        chain,
        trusted_key_id=KEY_ID if signed else None,
        signature_valid=_valid if signed else None,
        rule=RULE,
        kept=kept,
        same_signature=lambda signature, sequence: next(
            (cp.sequence for cp in checkpoints if cp.signature == signature and cp.sequence != sequence), None
        ),
        awaiting_seal=awaiting_seal,
    )
    return verifier.walk(records, checkpoints).finish(reached_head=True)


RECORDS = _ledger(12)
CHECKPOINTS = _seal(RECORDS, [3, 6, 9, 12])


# --- the rule ---------------------------------------------------------------------------------------


def _last(position: int, seconds_ago: float = 1) -> Checkpoint:
    return Checkpoint(1, position, GENESIS, (NOW - timedelta(seconds=seconds_ago)).isoformat(), "x", KEY_ID, GENESIS, b"")


@pytest.mark.parametrize(
    ("last", "head", "ended", "reason"),
    [
        (_last(5), 5, True, None),  # nothing new since the last checkpoint
        (_last(5), 6, True, "execution ended"),
        (None, 1, False, "first events"),
        (_last(5), 8, False, None),
        (_last(5), 9, False, "4 events"),
        (_last(5, seconds_ago=61), 6, False, "60 s"),
        (replace(_last(5), signed_at="garbage"), 6, False, "previous checkpoint time unreadable"),
    ],
)
def test_a_checkpoint_is_due_when_an_execution_ends_every_n_events_and_every_t_seconds(
    last: Checkpoint | None, head: int, ended: bool, reason: str | None
) -> None:
    assert RULE.due(last=last, head_position=head, now=NOW, execution_ended=ended) == reason


def test_the_signed_statement_covers_every_field_and_the_link_covers_the_signature() -> None:
    base = CHECKPOINTS[1]
    variants = [
        replace(base, sequence=9),
        replace(base, position=9),
        replace(base, ledger_hash=bytes(32)),
        replace(base, signed_at="later"),
        replace(base, reason="other"),
        replace(base, key_id="sha256:other"),
        replace(base, previous=bytes(32)),
    ]
    assert len({base.message(), *(variant.message() for variant in variants)}) == 8
    assert replace(base, signature=b"x" * 64).link() != base.link()
    assert Checkpoint.from_dict(base.to_dict()) == base


def test_checkpoints_are_merged_right_after_the_record_they_sign() -> None:
    merged = list(merge_by_position(RECORDS[:7], CHECKPOINTS[:3]))
    kinds = ["c" if isinstance(item, Checkpoint) else str(item.position) for item in merged]
    assert kinds == ["1", "2", "3", "c", "4", "5", "6", "c", "7", "c"]


# --- the walk ---------------------------------------------------------------------------------------


def test_an_honest_ledger_needs_one_signature_checked_for_all_its_checkpoints() -> None:
    verifier = _verify(RECORDS, CHECKPOINTS)
    assert verifier.intact
    assert verifier.checkpoints_checked == 4 and verifier.signatures_checked == 1
    assert verifier.newest == CHECKPOINTS[-1]


@pytest.mark.parametrize("index", [0, 1, 3])
def test_a_replaced_signature_is_pinned_on_its_own_checkpoint(index: int) -> None:
    checkpoints = list(CHECKPOINTS)
    checkpoints[index] = replace(checkpoints[index], signature=b"\x01" * 64)
    (problem,) = _verify(RECORDS, checkpoints).problems
    assert (problem.kind, problem.checkpoint) == (ProblemKind.BAD_SIGNATURE, index + 1)


def test_a_removed_checkpoint_is_missing() -> None:
    (problem,) = _verify(RECORDS, [CHECKPOINTS[0], *CHECKPOINTS[2:]]).problems
    assert (problem.kind, problem.checkpoint) == (ProblemKind.CHECKPOINT_MISSING, 3)
    assert "#2 removed" in problem.message


def test_events_cut_off_after_a_checkpoint_are_a_truncated_tail() -> None:
    (problem,) = _verify(RECORDS[:10], CHECKPOINTS).problems
    assert problem.kind is ProblemKind.TAIL_TRUNCATED and problem.position == 10
    assert "checkpoint #4 signed position 12, but the ledger ends at position 10" in problem.message


def test_history_rewritten_with_recomputed_hashes_is_a_fork_at_the_first_checkpoint_after_it() -> None:
    rewritten = _ledger(12)
    heads, head = {}, rewritten[3].ledger_hash
    for index in range(4, 12):  # change position 5 and recompute everything after it, as a forger would
        record = rewritten[index]
        state = b'{"forged":1}' if index == 4 else record.state
        assert state is not None
        previous = heads.get(record.originator_id, rewritten[index - 1].event_hash if record.version > 1 else GENESIS)
        digest = event_hash(previous, record.topic, record.originator_id, record.version, state)
        heads[record.originator_id] = digest
        head = ledger_hash(head, record.position, digest)
        rewritten[index] = record._replace(state=state, event_hash=digest, ledger_hash=head)
    problems = _verify(rewritten, CHECKPOINTS).problems
    assert [(problem.kind, problem.position) for problem in problems] == [(ProblemKind.CHAIN_FORK, 6), (ProblemKind.CHAIN_FORK, None)]
    assert "the history after position 3 was rewritten" in problems[0].message
    assert "2 later checkpoint(s) disagree" in problems[1].message


def test_an_old_checkpoint_put_back_as_the_newest_is_a_replay() -> None:
    replayed = replace(CHECKPOINTS[0], sequence=4)
    problems = _verify(RECORDS[:9], [*CHECKPOINTS[:3], replayed]).problems
    assert [(problem.kind, problem.checkpoint) for problem in problems] == [(ProblemKind.CHECKPOINT_REPLAYED, 4)]


def test_an_ending_after_the_newest_checkpoint_is_not_covered() -> None:
    (problem,) = _verify(RECORDS, CHECKPOINTS[:3]).problems
    assert (problem.kind, problem.position, problem.execution) == (ProblemKind.NOT_COVERED, 12, "e3")


def test_an_ending_young_enough_to_await_its_deferred_seal_is_not_a_problem_but_is_said() -> None:
    asked: list[int] = []

    def young(record: ChainRecord) -> bool:
        asked.append(record.position)
        return True

    verifier = _verify(RECORDS, CHECKPOINTS[:3], awaiting_seal=young)
    assert verifier.intact and verifier.awaiting_seal is not None and verifier.awaiting_seal.position == 12
    assert asked == [12]  # only the newest ending past the newest checkpoint is asked about
    (problem,) = _verify(RECORDS, CHECKPOINTS[:3], awaiting_seal=lambda record: False).problems
    assert problem.kind is ProblemKind.NOT_COVERED and "stopped before sealing it" in problem.message


def test_endings_are_sealed_at_once_unless_the_rule_defers_them() -> None:
    assert RULE.seals_endings_at_once and RULE.unsealed_ending_grace == 0
    deferred = replace(RULE, endings_within=0.2, seal_margin=10)
    assert not deferred.seals_endings_at_once and deferred.unsealed_ending_grace == pytest.approx(10.2)


def test_too_many_events_after_the_newest_checkpoint_are_not_covered() -> None:
    records = _ledger(9, ending_every=100)  # nothing ends: only the every-N rule applies
    (problem,) = _verify(records, _seal(records, [2])).problems
    assert problem.kind is ProblemKind.NOT_COVERED and "7 events after position 2 carry no signature" in problem.message
    assert _verify(records, _seal(records, [6])).intact


def test_without_a_public_key_the_signatures_are_left_unchecked_and_said_so() -> None:
    verifier = _verify(RECORDS, CHECKPOINTS, signed=False)
    assert verifier.intact and verifier.signatures_unchecked and verifier.signatures_checked == 0


def test_a_kept_checkpoint_must_still_be_extended_by_the_ledger() -> None:
    kept = CHECKPOINTS[2]
    assert _verify(RECORDS, CHECKPOINTS, kept=kept).intact
    (problem,) = _verify(RECORDS[:6], CHECKPOINTS[:2], kept=kept).problems
    assert problem.kind is ProblemKind.TAIL_TRUNCATED and "before the checkpoint you kept (#3 at position 9)" in problem.message
    forged = replace(kept, position=8)
    assert _verify(RECORDS, CHECKPOINTS, kept=forged).problems[0].kind is ProblemKind.BAD_SIGNATURE


# --- event MACs and checkpoint encodings (docs/decisions/0011) -----------------------------------------

MAC = EventMac(hashlib.sha256(b"mac key").digest())


def _with_macs(records: list[ChainRecord], from_position: int = 1) -> list[ChainRecord]:
    return [
        record._replace(mac=MAC.of(record.position, record.originator_id, record.version, record.event_hash, record.ledger_hash))
        if record.position >= from_position
        else record
        for record in records
    ]


def _seal_v2(records: list[ChainRecord], positions: list[int], macs_from: int, *, v1: tuple[int, ...] = ()) -> list[Checkpoint]:
    """Checkpoints at ``positions``: those in ``v1`` of the encoding from before MACs, the rest v2."""
    checkpoints: list[Checkpoint] = []
    for sequence, position in enumerate(positions, start=1):
        previous = checkpoints[-1].link() if checkpoints else GENESIS
        signed_at = (NOW + timedelta(seconds=sequence)).isoformat()
        head = records[position - 1].ledger_hash
        version, declared = (1, None) if position in v1 else (2, macs_from)
        message = checkpoint_message(
            sequence, position, head, signed_at, "test", KEY_ID, previous, version=version, macs_from=declared
        )
        checkpoints.append(
            Checkpoint(sequence, position, head, signed_at, "test", KEY_ID, previous, _sign(message), version, declared)
        )
    return checkpoints


def _verify_macs(
    records: list[ChainRecord], checkpoints: list[Checkpoint], *, key: bool = True
) -> LedgerVerifier:
    chain = ChainVerifier(ending_topics=frozenset({"end"}))
    verifier = LedgerVerifier(
        chain,
        trusted_key_id=KEY_ID,
        signature_valid=_valid,
        rule=RULE,
        macs_recorded=True,
        mac_valid=MAC.valid if key else None,
    )
    return verifier.walk(records, checkpoints).finish(reached_head=True)


def test_a_v2_checkpoint_has_its_own_encoding_and_a_v1_one_keeps_its_old_bytes_and_dict() -> None:
    v1 = CHECKPOINTS[1]
    v2 = _seal_v2(RECORDS, [3, 6], macs_from=1)[1]
    assert v1.message().startswith(encode_field(b"mai-safety/checkpoint/v1"))
    assert v2.message().startswith(encode_field(b"mai-safety/checkpoint/v2"))
    assert replace(v2, macs_from=2).message() != v2.message()
    assert replace(v2, version=1, macs_from=None).message() != v2.message()  # a downgrade breaks the signature
    assert "version" not in v1.to_dict() and Checkpoint.from_dict(v1.to_dict()) == v1
    assert v2.to_dict()["version"] == 2 and Checkpoint.from_dict(v2.to_dict()) == v2
    with pytest.raises(ValueError, match="v3"):
        Checkpoint.from_dict({**v2.to_dict(), "version": 3})


def test_a_ledger_with_every_event_maced_and_v2_checkpoints_verifies_with_and_without_the_key() -> None:
    records = _with_macs(RECORDS)
    checkpoints = _seal_v2(records, [3, 6, 9, 12], macs_from=1)
    verifier = _verify_macs(records, checkpoints)
    assert verifier.intact and verifier.macs_checked == 12 and not verifier.macs_unchecked
    blind = _verify_macs(records, checkpoints, key=False)
    assert blind.intact and blind.macs_checked == 0 and blind.macs_unchecked


def test_an_event_inserted_with_valid_hashes_but_no_mac_is_forged_even_without_the_key() -> None:
    records = _with_macs(RECORDS[:11])
    checkpoints = _seal_v2(records, [3, 6, 9], macs_from=1)
    records[10] = records[10]._replace(mac=None)  # position 11: after the newest checkpoint, not an ending
    for key in (True, False):
        (problem,) = _verify_macs(records, checkpoints, key=key).problems
        assert (problem.kind, problem.position) == (ProblemKind.FORGED_EVENT, 11)
        assert "carries no MAC" in problem.message and "checkpoint #1 declares it" in problem.message


def test_a_mac_that_does_not_verify_is_forged_and_a_run_of_them_is_one_problem() -> None:
    records = _with_macs(RECORDS)
    checkpoints = _seal_v2(records, [3, 6, 9, 12], macs_from=1)
    records[4] = records[4]._replace(mac=records[5].mac)  # a MAC copied from another event
    for index in (9, 10, 11):
        records[index] = records[index]._replace(mac=bytes(32))
    problems = _verify_macs(records, checkpoints).problems
    assert [(problem.kind, problem.position) for problem in problems] == [
        (ProblemKind.FORGED_EVENT, 5),
        (ProblemKind.FORGED_EVENT, 10),
    ]
    assert "its MAC does not verify" in problems[0].message
    assert "and the 2 event(s) after it, to position 12" in problems[1].message


def test_events_from_before_macs_are_accepted_only_under_a_checkpoint_from_before_macs() -> None:
    # Positions 1..6 written before MACs, sealed by v1 checkpoints at 3 and 6; 7 and 8 before MACs
    # too, unsealed when the service was upgraded; from 9 on with MACs, the first v2 checkpoint at 12
    # declaring them from 9.
    records = _with_macs(RECORDS, from_position=9)
    checkpoints = _seal_v2(records, [3, 6, 12], macs_from=9, v1=(3, 6))
    assert _verify_macs(records, checkpoints).intact
    # A v2 checkpoint that said MACs begin at 7 makes 7 and 8 forged.
    problems = _verify_macs(records, _seal_v2(records, [3, 6, 12], macs_from=7, v1=(3, 6))).problems
    assert [(problem.kind, problem.position) for problem in problems] == [(ProblemKind.FORGED_EVENT, 7)]
    # An event without a MAC after one that has one cannot be from before MACs.
    late = list(records)
    late[10] = late[10]._replace(mac=None)
    assert [(p.kind, p.position) for p in _verify_macs(late, checkpoints).problems] == [(ProblemKind.FORGED_EVENT, 11)]


def test_events_from_before_macs_after_the_newest_old_checkpoint_are_said_not_refused() -> None:
    checkpoints = _seal_v2(RECORDS, [3, 6], macs_from=1, v1=(3, 6))
    verifier = _verify_macs(RECORDS[:8], checkpoints)
    assert verifier.intact and verifier.pre_mac_tail == (7, 8, 2)


def test_a_checkpoint_of_the_old_encoding_after_a_v2_one_is_a_mismatch() -> None:
    records = _with_macs(RECORDS)
    checkpoints = _seal_v2(records, [3, 6, 9], macs_from=1, v1=(9,))
    problems = _verify_macs(records[:9], checkpoints).problems
    assert [(problem.kind, problem.checkpoint) for problem in problems] == [(ProblemKind.CHECKPOINT_MISMATCH, 3)]
    assert "encoding from before event MACs (v1), after #1 declared them" in problems[0].message


def test_a_witnessed_checkpoint_the_ledger_no_longer_reaches_is_the_ledger_behind_the_witness() -> None:
    chain = ChainVerifier(ending_topics=frozenset({"end"}))
    verifier = LedgerVerifier(
        chain, trusted_key_id=KEY_ID, signature_valid=_valid, rule=RULE, witnessed=CHECKPOINTS[3], witness="file w"
    )
    (problem,) = verifier.walk(RECORDS[:9], CHECKPOINTS[:3]).finish(reached_head=True).problems
    assert problem.kind is ProblemKind.LEDGER_BEHIND_WITNESS
    assert "before the checkpoint file w recorded (#4 at position 12" in problem.message
