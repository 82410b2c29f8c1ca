"""The chain-hash rule, with no I/O."""

from __future__ import annotations

from dataclasses import replace

from mai_safety.domain.chain import GENESIS, ChainRecord, ChainVerifier, event_hash, ledger_hash


def _ledger(events: list[tuple[str, int, bytes]]) -> list[ChainRecord]:
    records, heads, ledger_head = [], {}, GENESIS
    for position, (originator, version, state) in enumerate(events, start=1):
        digest = event_hash(heads.get(originator, GENESIS), "topic", originator, version, state)
        heads[originator] = digest
        ledger_head = ledger_hash(ledger_head, position, digest)
        records.append(ChainRecord(position, originator, version, "topic", state, digest, ledger_head))
    return records


EVENTS = [("a", 1, b"{}"), ("b", 1, b"{}"), ("a", 2, b'{"x":1}'), ("b", 2, b"{}"), ("a", 3, b"{}")]


def test_an_honest_ledger_verifies() -> None:
    verifier = ChainVerifier().check_all(_ledger(EVENTS))
    assert verifier.intact
    assert verifier.checked == 5
    assert verifier.head[0] == 5


def test_hashes_depend_on_every_field() -> None:
    base = event_hash(GENESIS, "t", "a", 1, b"s")
    assert len({
        base,
        event_hash(bytes([1]) * 32, "t", "a", 1, b"s"),
        event_hash(GENESIS, "u", "a", 1, b"s"),
        event_hash(GENESIS, "t", "b", 1, b"s"),
        event_hash(GENESIS, "t", "a", 2, b"s"),
        event_hash(GENESIS, "t", "a", 1, b"S"),
    }) == 6


def test_field_boundaries_cannot_be_shifted() -> None:
    # Length prefixes keep "ab"+"c" apart from "a"+"bc".
    assert event_hash(GENESIS, "ab", "c", 1, b"") != event_hash(GENESIS, "a", "bc", 1, b"")


def test_a_changed_state_is_reported_at_its_position() -> None:
    records = _ledger(EVENTS)
    records[2] = replace(records[2], state=b'{"x":2}')
    verifier = ChainVerifier().check_all(records)
    assert not verifier.intact
    assert verifier.problems[0].position == 3
    assert "event hash mismatch" in verifier.problems[0].problem


def test_a_deleted_event_breaks_both_chains() -> None:
    records = _ledger(EVENTS)
    del records[2]
    problems = ChainVerifier().check_all(records).problems
    kinds = " ".join(problem.problem for problem in problems)
    assert "missing position" in kinds
    assert "unexpected event" in kinds


def test_recomputing_one_event_hash_still_breaks_the_ledger_chain() -> None:
    records = _ledger(EVENTS)
    forged_state = b'{"x":9}'
    forged = event_hash(records[0].event_hash, "topic", "a", 2, forged_state)
    records[2] = replace(records[2], state=forged_state, event_hash=forged)
    problems = ChainVerifier().check_all(records).problems
    assert [problem.position for problem in problems] == [3, 5]  # ledger link at 3; a's next event at 5
