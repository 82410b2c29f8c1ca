"""The ids a server has handed out before anything was recorded (infrastructure/http/submissions.py),
and the stream opened on one (streams.follow_submission): futures in place of the commands, no
server, no ledger."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import Future
from typing import Any

from mai_safety.domain.errors import InvalidSubmission
from mai_safety.infrastructure.http.streams import follow_submission
from mai_safety.infrastructure.http.submissions import Submissions


def test_a_handed_out_id_is_its_submitters_alone_until_its_command_ends_well() -> None:
    submissions, future = Submissions(), Future[Any]()
    submissions.add("id-1", "mai", future)
    pending = submissions.of("id-1", "mai")
    assert pending is not None and not pending.done() and pending.failure() is None
    assert submissions.of("id-1", "eve") is None, "another principal learns nothing of it"
    future.set_result("the report")
    assert submissions.of("id-1", "mai") is None and submissions.count() == 0, "the ledger answers for it now"


def test_a_submission_that_failed_before_it_was_recorded_answers_with_its_failure_for_a_while() -> None:
    submissions, future = Submissions(keep_failed_s=600, keep_failed=2), Future[Any]()
    submissions.add("id-1", "mai", future)
    refusal = InvalidSubmission("the code is not UTF-8")
    future.set_exception(refusal)
    pending = submissions.of("id-1", "mai")
    assert pending is not None and pending.failure() is refusal
    assert submissions.of("id-1", "eve") is None
    for number in (2, 3):
        failed = Future[Any]()
        submissions.add(f"id-{number}", "mai", failed)
        failed.set_exception(RuntimeError("x"))
    assert submissions.of("id-1", "mai") is None, "only the newest failures are kept"
    assert submissions.of("id-3", "mai") is not None


def _events(stream: Any) -> list[tuple[str, Any]]:
    async def collect() -> list[str]:
        return [part async for part in stream]

    parts = asyncio.run(collect())
    events = []
    for part in parts:
        lines = dict(line.split(": ", 1) for line in part.strip().splitlines() if not line.startswith("id:"))
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_a_stream_on_a_submission_refused_before_it_was_recorded_says_assessing_then_closes_with_the_refusal() -> None:
    submissions, future = Submissions(), Future[Any]()
    submissions.add("id-1", "mai", future)
    pending = submissions.of("id-1", "mai")
    assert pending is not None
    future.set_exception(InvalidSubmission("the code is not UTF-8"))
    events = _events(follow_submission("id-1", pending, lambda: None, lambda watch: None, threading.Event()))
    assert events[0] == ("state", {"execution_id": "id-1", "status": "assessing"})
    assert events[1][0] == "closing" and events[1][1]["status"] == 422 and "not UTF-8" in events[1][1]["detail"]
    assert len(events) == 2


def test_a_refusal_of_the_moment_is_told_apart_from_a_refusal_of_the_request() -> None:
    """A submission that failed before anything was recorded: reading its id later answers a refusal
    of the request as it was (invalid code stays invalid), but not a refusal of the moment (the
    ledger or Docker not answering, no room): that one answers that nothing was recorded."""
    from mai_safety.application.errors import LedgerUnavailable, SandboxUnavailable
    from mai_safety.domain.errors import InvalidSubmission
    from mai_safety.domain.limits import HostBusy
    from mai_safety.infrastructure.http.problems import of_the_moment

    assert of_the_moment(LedgerUnavailable("the ledger's database does not answer"))
    assert of_the_moment(SandboxUnavailable("Docker does not answer"))
    assert of_the_moment(HostBusy("no room"))
    assert not of_the_moment(InvalidSubmission("the code is not UTF-8"))
    assert not of_the_moment(ValueError("not ours"))
