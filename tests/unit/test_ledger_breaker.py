"""The Postgres ledger's breaker (ledger/infrastructure/breaker.py): a refusing database is told
at once, a slow pool is waited for, and one caller probes now and then."""

from __future__ import annotations

import pytest

from mai_safety.application.errors import LedgerUnavailable
from mai_safety.ledger.infrastructure.breaker import Breaker


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_closed_breaker_lets_every_caller_wait_the_pools_full_wait() -> None:
    breaker = Breaker(clock=Clock())
    assert breaker.admit(20.0) == 20.0
    breaker.check()


def test_after_a_refused_connection_callers_are_refused_at_once_with_the_reason() -> None:
    clock = Clock()
    breaker = Breaker(probe_every_s=2.0, clock=clock)
    breaker.refused("connection refused")
    clock.now += 1.0
    with pytest.raises(LedgerUnavailable, match="refused connections for 1 s .connection refused."):
        breaker.admit(20.0)
    with pytest.raises(LedgerUnavailable):
        breaker.check()


def test_one_caller_probes_every_interval_with_the_short_wait_and_the_others_are_refused() -> None:
    clock = Clock()
    breaker = Breaker(probe_wait_s=2.0, probe_every_s=3.0, clock=clock)
    breaker.refused("connection refused")
    clock.now += 3.0
    assert breaker.admit(20.0) == 2.0
    with pytest.raises(LedgerUnavailable):
        breaker.admit(20.0)
    clock.now += 4.9  # the probe's wait and the interval are not over yet
    with pytest.raises(LedgerUnavailable):
        breaker.admit(20.0)
    clock.now += 0.2
    assert breaker.admit(20.0) == 2.0


def test_a_successful_connection_closes_it_and_a_new_refusal_counts_from_then() -> None:
    clock = Clock()
    breaker = Breaker(clock=clock)
    breaker.refused("connection refused")
    breaker.connected()
    assert not breaker.is_open and breaker.admit(20.0) == 20.0
    clock.now += 60.0
    breaker.refused("the server closed the connection")
    with pytest.raises(LedgerUnavailable, match="for 0 s"):
        breaker.check()


def test_the_datastore_the_library_made_is_guarded_in_place_with_every_option_it_was_given() -> None:
    from eventsourcing.postgres import PostgresDatastore

    from mai_safety.ledger.infrastructure.breaker import GuardedPool, guard

    datastore = PostgresDatastore(
        "ledger", "db.example", 5433, "service", "secret", connect_timeout=7.0, pool_size=3, max_overflow=2,
        max_waiting=4, conn_max_age=99.0, pre_ping=True, lock_timeout=3, schema="audit",
    )  # the pool is made closed: nothing connects
    library_pool = datastore.pool
    options = dict(library_pool.kwargs or {})
    pool = guard(datastore)
    assert pool is library_pool and datastore.pool is pool and isinstance(pool, GuardedPool)
    assert {key: value for key, value in (pool.kwargs or {}).items() if key != "connect_timeout"} == options
    assert (pool.min_size, pool.max_size, pool.max_waiting, pool.timeout, pool.max_lifetime) == (3, 5, 4, 7.0, 99.0)
    assert pool.kwargs is not None and pool.kwargs["connect_timeout"] == 7
    assert (datastore.schema, datastore.lock_timeout, datastore.pre_ping) == ("audit", 3, True)


def test_while_the_breaker_is_open_the_guarded_pool_refuses_without_waiting_for_a_connection() -> None:
    from eventsourcing.postgres import PostgresDatastore

    from mai_safety.ledger.infrastructure.breaker import guard

    clock = Clock()
    breaker = Breaker(probe_every_s=2.0, clock=clock)
    pool = guard(PostgresDatastore("ledger", "db.example", 5432, "service", "secret"), breaker)
    breaker.refused("connection refused")
    with pytest.raises(LedgerUnavailable, match="connection refused"):
        pool.getconn()  # the pool was never opened: it would raise PoolClosed if it were asked
