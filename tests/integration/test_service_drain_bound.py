"""SIGTERM while the ledger's Postgres is paused (issue 24, item 3): the drain keeps its bound
whatever the database does. Paused, Postgres accepts TCP and answers nothing, so every write waits
out the answer bound (30 s as shipped), one after another; the service was still there 90 s after
a SIGTERM with ``--grace 3``, then exited 0 although it had recorded nothing of how its runs ended.
Now it exits within the grace and the closing bound, with exit status 5 and one line naming how
many executions it left open; the next start's recovery ends them."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path
from typing import Any

import docker
import pytest

from mai_safety.infrastructure.bootstrap import bootstrap

from .cli_helpers import policies_with
from .conftest import containers_of_this_run, settings_for
from .service_helpers import grant_tokens, running_server
from .test_service_ledger_outage import _url, _wait_until_postgres_answers, own_postgres  # noqa: F401 - the fixture

pytestmark = pytest.mark.postgres

GRACE_S = 3.0
#: What the service takes past the grace to record what it can and close (http/server.py
#: STOP_WITHIN_S), and for the process to end, generous for a loaded 2-core host.
CLOSING_S = 3.0 + 2.0
SLEEPER = "import time\ntime.sleep(20)\n"


def test_sigterm_with_the_ledger_paused_exits_within_its_bound_non_zero_and_recovery_closes_what_was_left(
    tmp_path: Path, own_postgres: Any, docker_client: docker.DockerClient  # noqa: F811
) -> None:
    url = _url(own_postgres)
    policies = policies_with(tmp_path)
    tokens = grant_tokens(url, policies, {"mai": ["submitter"]})
    wrapped = own_postgres.get_wrapped_container()
    with running_server(tmp_path, url, policies, args=["--grace", f"{GRACE_S:g}"]) as server:
        with server.client(tokens["mai"]) as client:
            accepted = client.post("/v1/executions", json={"code": SLEEPER, "wait_s": 0.2})
            assert accepted.status_code == 202, accepted.text
            execution_id = accepted.json()["execution_id"]
            while client.get(f"/v1/executions/{execution_id}").json()["status"] != "running":
                time.sleep(0.1)
        wrapped.pause()
        try:
            signalled = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            status = server.stop(timeout=120)
            took = time.monotonic() - signalled
        finally:
            wrapped.unpause()
        output = server.output()
    print(f"\nSIGTERM with the ledger paused: exit {status} after {took:.1f} s (--grace {GRACE_S:g})")
    assert took < GRACE_S + CLOSING_S, f"exited {took:.1f} s after SIGTERM: {output}"
    assert status == 5, output
    assert re.search(r"left 1 execution\(s\) open", output), output

    _wait_until_postgres_answers(url)
    with running_server(tmp_path, url, policies) as again:
        assert "recovered 1 execution(s)" in again.output(), again.output()
    app = bootstrap(settings_for(url, policies), warm_semgrep=False)
    try:
        report = app.report(execution_id)
        assert (report.status, report.termination_reason) == ("terminated", "supervisor_lost")
        assert app.verify().intact
    finally:
        app.close()
    assert not containers_of_this_run(docker_client)
