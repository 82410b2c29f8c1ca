"""The bound on one use of a ledger connection (ledger/infrastructure/answer_watch.py), over a local
socket pair standing in for libpq's connection: a use past the bound has its socket shut down
under it and opens the breaker; a use within it closes the breaker."""

from __future__ import annotations

import socket
from types import SimpleNamespace

from mai_safety.ledger.infrastructure.answer_watch import AnswerWatch


class Breaker:
    def __init__(self) -> None:
        self.refusals: list[str] = []
        self.answers = 0

    def refused(self, reason: str) -> None:
        self.refusals.append(reason)

    def connected(self) -> None:
        self.answers += 1


def test_a_use_that_gets_no_answer_is_cut_and_opens_the_breaker() -> None:
    ours, database = socket.socketpair()
    connection = SimpleNamespace(pgconn=SimpleNamespace(socket=ours.fileno()))
    breaker = Breaker()
    watch = AnswerWatch(0.3, breaker)
    try:
        with watch.watching(connection):
            ours.settimeout(10)
            assert ours.recv(1) == b"", "the wait for an answer was not cut"  # the database never answers
        assert breaker.refusals == ["no answer within 0.3 s"] and breaker.answers == 0
    finally:
        ours.close()
        database.close()


def test_a_use_answered_in_time_closes_the_breaker_and_is_not_cut() -> None:
    ours, database = socket.socketpair()
    connection = SimpleNamespace(pgconn=SimpleNamespace(socket=ours.fileno()))
    breaker = Breaker()
    watch = AnswerWatch(5.0, breaker)
    try:
        with watch.watching(connection):
            database.sendall(b"x")
            assert ours.recv(1) == b"x"
        assert breaker.refusals == [] and breaker.answers == 1
        database.sendall(b"y")
        assert ours.recv(1) == b"y", "a connection used in time stays whole"
    finally:
        ours.close()
        database.close()
