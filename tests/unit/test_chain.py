"""The chain-hash rule, with no I/O."""

from __future__ import annotations

import hashlib
from mai_safety.ledger.domain.chain import (
    GENESIS,
    ChainRecord,
    ChainVerifier,
    ProblemKind,
    encode_field,
    event_hash,
    ledger_hash,
)


def _ledger(events: list[tuple[str, int, bytes]], topic: str = "topic") -> list[ChainRecord]:
    records, heads, ledger_head = [], {}, GENESIS
    for position, (originator, version, state) in enumerate(events, start=1):
        digest = event_hash(heads.get(originator, GENESIS), topic, originator, version, state)
        heads[originator] = digest
        ledger_head = ledger_hash(ledger_head, position, digest)
        records.append(ChainRecord(position, originator, version, topic, state, digest, ledger_head))
    return records


EVENTS = [("a", 1, b"{}"), ("b", 1, b"{}"), ("a", 2, b'{"x":1}'), ("b", 2, b"{}"), ("a", 3, b"{}")]


def _kinds(records: list[ChainRecord], **options: object) -> list[tuple[ProblemKind, int | None]]:
    return [(problem.kind, problem.position) for problem in ChainVerifier(**options).check_all(records).problems]  # type: ignore[arg-type]


def test_an_honest_ledger_verifies() -> None:
    verifier = ChainVerifier().check_all(_ledger(EVENTS))
    assert verifier.intact
    assert verifier.checked == 5
    assert verifier.head[0] == 5


def test_the_encoding_is_the_documented_one() -> None:
    # SHA-256 over the tag and each field, each as an 8-byte big-endian length and the bytes.
    expected = hashlib.sha256(
        b"".join(
            encode_field(part)
            for part in (b"mai-safety/event/v1", GENESIS, b"t", b"a", (1).to_bytes(8, "big"), b"s")
        )
    ).digest()
    assert event_hash(GENESIS, "t", "a", 1, b"s") == expected
    assert encode_field(b"ab") == b"\x00\x00\x00\x00\x00\x00\x00\x02ab"


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


def test_a_changed_state_is_reported_at_its_position_with_its_execution_and_event() -> None:
    records = _ledger(EVENTS, topic="mod:Execution.Started")
    records[2] = records[2]._replace(state=b'{"x":2}')
    (problem,) = ChainVerifier().check_all(records).problems
    assert (problem.kind, problem.position, problem.execution, problem.version, problem.event) == (
        ProblemKind.HASH_MISMATCH, 3, "a", 2, "Started"
    )
    assert problem.describe() == (
        "position 3: execution a event 2 (Started): event hash mismatch: the event's content "
        "(state, topic, id or version) or its predecessor in this execution was changed"
    )


def test_a_deleted_event_is_a_missing_position_and_a_missing_version() -> None:
    records = _ledger(EVENTS)
    del records[2]
    problems = ChainVerifier().check_all(records).problems
    assert [(problem.kind, problem.position) for problem in problems] == [
        (ProblemKind.MISSING_POSITION, 4),
        (ProblemKind.HASH_MISMATCH, 4),
        (ProblemKind.UNEXPECTED_EVENT, 5),
    ]
    assert "position 3 removed" in problems[0].message
    assert "version 2 missing" in problems[2].message


def test_recomputing_one_event_hash_still_breaks_the_ledger_chain() -> None:
    records = _ledger(EVENTS)
    forged_state = b'{"x":9}'
    forged = event_hash(records[0].event_hash, "topic", "a", 2, forged_state)
    records[2] = records[2]._replace(state=forged_state, event_hash=forged)
    assert [position for _, position in _kinds(records)] == [3, 5]  # ledger link at 3; a's next event at 5


def test_swapped_events_of_one_execution_are_out_of_order() -> None:
    records = _ledger([("a", 1, b"1"), ("a", 2, b"2"), ("a", 3, b"3"), ("a", 4, b"4")])
    records[1], records[2] = records[2]._replace(position=2), records[1]._replace(position=3)
    problems = ChainVerifier().check_all(records).problems
    unexpected = [problem for problem in problems if problem.kind is ProblemKind.UNEXPECTED_EVENT]
    assert "expected version 2 of this execution, found 3" in unexpected[0].message
    assert "version 2 of this execution comes after version 3" in unexpected[1].message
    assert not [problem for problem in problems if problem.position == 4 and problem.kind is not ProblemKind.HASH_MISMATCH]


def test_a_second_event_at_one_position_is_a_fork() -> None:
    records = _ledger(EVENTS)
    records.insert(3, records[2])
    assert (ProblemKind.CHAIN_FORK, 3) in _kinds(records)


def test_an_event_of_a_kind_the_service_never_writes_is_unexpected() -> None:
    records = _ledger(EVENTS, topic="mod:Execution.Approved")
    problems = ChainVerifier(known_topics=frozenset({"mod:Execution.Assessed"})).check_all(records[:1]).problems
    assert problems[0].kind is ProblemKind.UNEXPECTED_EVENT and "'mod:Execution.Approved'" in problems[0].message


def test_a_walk_from_mid_ledger_takes_the_hashes_before_it_as_given() -> None:
    records = _ledger(EVENTS)
    before = {(record.originator_id, record.version): record.event_hash for record in records[:2]}
    verifier = ChainVerifier(
        2, records[1].ledger_hash, predecessor=lambda originator, version: before.get((originator, version))
    ).check_all(records[2:])
    assert verifier.intact and verifier.checked == 3
    changed = [records[2], records[3]._replace(state=b"!"), records[4]]
    assert _kinds(changed, start_after=2, head=records[1].ledger_hash, predecessor=lambda o, v: before.get((o, v))) == [
        (ProblemKind.HASH_MISMATCH, 4)
    ]


def test_a_redacted_event_carries_the_ledger_chain_without_its_content() -> None:
    records = _ledger(EVENTS)
    redacted = [record._replace(state=None) if record.originator_id == "b" else record for record in records]
    assert ChainVerifier().check_all(redacted).intact
    redacted[1] = redacted[1]._replace(event_hash=bytes(32))
    assert _kinds(redacted) == [(ProblemKind.HASH_MISMATCH, 2)]


def test_the_last_ending_event_is_remembered_for_the_signature_check() -> None:
    records = _ledger(EVENTS, topic="end")
    verifier = ChainVerifier(ending_topics=frozenset({"end"})).check_all(records)
    assert verifier.last_ending is not None and verifier.last_ending.position == 5


def test_an_event_mac_is_hmac_sha256_over_the_encoded_position_ids_and_hashes() -> None:
    import hmac

    from mai_safety.ledger.domain.chain import EventMac, event_mac_message

    key = hashlib.sha256(b"key").digest()
    fields = (7, "3f1c2a8e-1234-4abc-8def-0123456789ab", 2, bytes(range(32)), bytes(32))
    mac = EventMac(key).of(*fields)
    assert mac == hmac.digest(key, event_mac_message(*fields), "sha256")
    record = ChainRecord(7, fields[1], 2, "t", b"{}", fields[3], fields[4], mac)
    assert EventMac(key).valid(record)
    for changed in (record._replace(position=8), record._replace(version=3), record._replace(ledger_hash=bytes(range(32)))):
        assert not EventMac(key).valid(changed)
    assert not EventMac(hashlib.sha256(b"other").digest()).valid(record)
    assert not EventMac(key).valid(record._replace(mac=None))
