"""The observed record (decision 0044): what a run did, seen from outside the code, and where it
differs from what the assessment predicted. Real Docker, real gVisor (``runsc-observed``), real
analyzers; each run costs a second or two."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from mai_safety.application.executions import MaiSafety
from mai_safety.infrastructure.bootstrap import bootstrap

from .cli_helpers import run_cli
from .conftest import GVISOR, runtime_policies, settings_for

#: Hides a shell behind a library helper the analysis does not know, and reads a planted key
#: (~ is /workspace) by a name it reads from a file: rated LOW today.
HIDING = b"""import multiprocessing.util
import os

pid = multiprocessing.util.spawnv_passfds(b"/bin/sh", [b"sh", b"-c", b"echo hidden"], ())
os.waitpid(pid, 0)
with open("index.txt") as index:
    wanted = index.read().strip()
with open(wanted) as secret:
    print(len(secret.read()))
"""
PLANTED = {".ssh/id_rsa": b"-----BEGIN OPENSSH PRIVATE KEY-----\nplanted\n", "index.txt": b"/workspace/.ssh/id_rsa\n"}


def _observed_available() -> bool:
    return bool(GVISOR.get("available") and GVISOR.get("observed", {}).get("available"))


@pytest.fixture
def observed_app(tmp_path: Path, docker_client: docker.DockerClient) -> Iterator[MaiSafety]:
    if not _observed_available():
        pytest.skip(f"gVisor's observed runtime is not registered here: {GVISOR.get('observed', GVISOR.get('reason'))}")
    application = bootstrap(settings_for(f"sqlite:///{tmp_path / 'ledger.sqlite'}", runtime_policies(tmp_path, "runsc")))
    yield application
    application.close()


def _ending(app: MaiSafety, execution_id: str) -> dict:
    return next(event for event in app.history(execution_id) if event["event"] in ("Completed", "Terminated"))


def test_a_hidden_shell_and_a_read_of_a_planted_key_are_in_the_observed_record(observed_app: MaiSafety) -> None:
    report = observed_app.run(HIDING, files=PLANTED)
    ending = _ending(observed_app, report.execution_id)
    print(ending["outcome"], ending["observed"])
    observed = ending["observed"]
    assert observed["fact"] is True and observed["source"] == "gvisor-strace"
    assert ["sh", "-c", "echo hidden"] in [process["argv"] for process in observed["processes"]]
    assert {"path": "/workspace/.ssh/id_rsa", "access": "read", "ok": True, "sensitive": True} in observed["files"]  # the policy's model marks it
    assert ending["outcome"]["observations"]["attempted"]["self_reported"] is True


def test_a_datagram_sent_with_no_connect_is_a_connection_in_the_observed_record(observed_app: MaiSafety) -> None:
    # UDP needs no connect (syslog, a DNS query): the record lists the send, with its address.
    sender = b"""import socket
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    udp.sendto(b"hello", ("192.0.2.1", 514))
except OSError as exc:
    print(exc.errno)
"""
    report = observed_app.run(sender, confirm=True)
    assert report.status == "completed", report.detail
    connections = _ending(observed_app, report.execution_id)["observed"]["connections"]
    assert {"family": "AF_INET", "address": "192.0.2.1", "port": 514, "ok": False, "via": "sendto"} in connections


def test_low_code_seen_doing_what_it_hid_is_recorded_as_diverged_and_rated_high_from_then_on(
    observed_app: MaiSafety, tmp_path: Path
) -> None:
    first = observed_app.run(HIDING, files=PLANTED)
    assert first.level == "LOW" and first.status == "completed"
    events = observed_app.history(first.execution_id)
    assert events[-1]["event"] == "Diverged"
    effects = {divergence["effect"] for divergence in events[-1]["divergences"]}
    assert effects == {"shell", "sensitive_path"}
    again = observed_app.run(HIDING, files=PLANTED)
    assert again.level == "HIGH" and again.status == "awaiting_override"
    assert any(finding["rule_id"] == "observed-divergence" for finding in again.findings)
    assert observed_app.verify().intact
    environ = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}", "MAI_SAFETY_POLICIES": str(tmp_path / "policies-runsc" / "policies")}
    history = run_cli(["history", first.execution_id], environ)
    assert "executed   sh -c echo hidden" in history.stdout and "diverged: shell" in history.stdout, history.stderr
    listed = run_cli(["executions", "--diverged"], environ)
    assert first.execution_id in listed.stdout and again.execution_id not in listed.stdout, listed.stderr
    page = tmp_path / "report.html"  # the audit report lists it too, with what was seen
    made = run_cli(["report", "--format", "html", "--output", str(page)], environ)
    assert made.returncode == 0, made.stderr
    shown = page.read_text().split("Seen doing what their level did not predict")[1]
    assert first.execution_id in shown and "shell" in shown and "sensitive_path" in shown
    as_text = run_cli(["report"], environ).stdout.split("diverged (")[1]
    assert first.execution_id in as_text and again.execution_id not in as_text


def test_the_record_marks_what_a_run_opened_by_the_sensitive_path_model_of_the_policy_in_force(observed_app: MaiSafety) -> None:
    reader = b"print(len(open('notes/plan.txt').read()))\n"
    notes = {"notes/plan.txt": b"the plan\n"}
    seen = {"path": "/workspace/notes/plan.txt", "access": "read", "ok": True}

    def marked(report_id: str) -> bool:
        """Listed as sensitive (a file inside /workspace is listed only when the model marks it)."""
        files = _ending(observed_app, report_id)["observed"]["files"]
        return any({key: item.get(key) for key in seen} == seen and item.get("sensitive") is True for item in files)

    before = observed_app.run(reader, files=notes, confirm=True)
    assert before.status == "completed", before.detail
    assert not marked(before.execution_id)
    # The operator applies a version whose model names the user's notes (~ is the sandbox's home).
    files = dict(observed_app.policy_in_force().files)
    files["sensitive_paths.yaml"] = files["sensitive_paths.yaml"].replace(
        "entries:\n", "entries:\n  - name: the user's plans\n    paths: [~/notes/**]\n    read: HIGH\n", 1
    )
    assert observed_app.apply_policy(files).version == 1
    after = observed_app.run(reader, files=notes, confirm=True)
    assert after.status == "completed", after.detail
    assert marked(after.execution_id)  # by the version in force, not the one the process started with


def test_under_runc_the_record_is_thinner_and_says_so(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    app = bootstrap(settings_for(f"sqlite:///{tmp_path / 'runc.sqlite'}", runtime_policies(tmp_path, "runc")))
    try:
        report = app.run(b"import subprocess\nsubprocess.run(['sleep', '1.5'], check=True)\n", confirm=True)
        assert report.status == "completed", report
        observed = _ending(app, report.execution_id)["observed"]
    finally:
        app.close()
    assert observed["fact"] is True and observed["source"] == "runc-cgroup" and observed["sees"] == ["processes"]
    assert {"argv": ["sleep", "1.5"]} in observed["processes"]
    assert "not observed" in observed["note"]
