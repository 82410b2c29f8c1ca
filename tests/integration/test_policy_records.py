"""Policies as recorded configuration, through the real CLI and a real SQLite ledger; a revision's
diff recorded and shown; old ledgers read with no policy version; the service's route as admin only."""

from __future__ import annotations

import os
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from mai_safety.domain.levels import RiskLevel
from mai_safety.infrastructure.settings import PROJECT_ROOT

from ..unit.fakes import FakeAssessor
from .cli_helpers import run_cli, suite_policies
from .ledger_helpers import make_app, service_environ
from .service_helpers import grant_tokens, running_server
from .test_ledger_fixtures import _copy_6441331, _copy_6bb7568


#: HIGH under the shipped policies (privileged access): it waits for a confirmation, so nothing runs.
HIGH = 'import subprocess\ntry:\n    subprocess.run(["sudo", "true"])\nexcept OSError:\n    pass\n'


def _copy(tmp_path: Path, name: str = "proposed") -> Path:
    """A copy of the folder the tests' ledger reads as version 0 (the suite's: the shipped one, no pool)."""
    folder = tmp_path / name
    shutil.copytree(suite_policies(), folder)
    return folder


def _change(folder: Path, file: str, dotted: str, value: object) -> None:
    path = folder / file
    data = yaml.safe_load(path.read_text())
    target = data
    *parents, last = dotted.split(".")
    for key in parents:
        target = target[key]
    target[last] = value
    path.write_text(yaml.safe_dump(data))


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    data = tmp_path / "data"
    return {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{data / 'ledger.sqlite'}", **service_environ(data)}


def test_a_copy_of_the_shipped_policies_validates(tmp_path: Path, env: dict[str, str]) -> None:
    result = run_cli(["policy", "validate", str(_copy(tmp_path))], env)
    assert (result.returncode, result.stderr) == (0, "") and "valid (19 files)" in result.stdout


@pytest.mark.parametrize(
    ("file", "key", "value", "expected"),
    [
        ("gate.yaml", "override", ["*"], "gate.yaml: override: '*' matches anyone"),
        ("network.yaml", "trust_levels", ["standard", "untrusted"], "network.yaml: trust_levels: untrusted code never gets a network"),
        ("limits.yaml", "trust", [{"provenance": "external", "up_to": "LOW", "trust": "trusted"}], "limits.yaml: trust.0: external code is always untrusted"),
        ("limits.yaml", "profiles.untrusted.runtime", "runc", "limits.yaml: profiles.untrusted.runtime: runc (also what an absent runtime means) takes untrusted code off gVisor"),
        ("limits.yaml", "profiles.untrusted.cpus", 64, "limits.yaml: profiles.untrusted.cpus: 64 is more than the host's"),
        ("limits.yaml", "profiles.untrusted.read_only", False, "key profiles.untrusted.read_only: the root filesystem is always read-only"),
        ("limits.yaml", "profiles.standard.cap_add", ["SYS_ADMIN"], "key profiles.standard.cap_add: no capability is ever added"),
        ("limits.yaml", "profiles.trusted.privileged", True, "key profiles.trusted.privileged: a run is never privileged"),
        ("assessment.yaml", "analyzer_failure_level", "LOW", "assessment.yaml: analyzer_failure_level: an analyzer that fails must never make the code LOW"),
        ("gate.yaml", "answer_within_s", "soon", "gate.yaml: key answer_within_s:"),
        ("alerts.yaml", "webhook", {"url": "not a url", "secret_env": "NO_SUCH_VARIABLE"}, "alerts.yaml"),
    ],
)
def test_a_weakening_or_wrong_policy_is_refused_with_one_line_and_changes_nothing(
    tmp_path: Path, env: dict[str, str], file: str, key: str, value: object, expected: str
) -> None:
    folder = _copy(tmp_path)
    _change(folder, file, key, value)
    for command in ("validate", "apply"):
        result = run_cli(["policy", command, str(folder)], env)
        assert result.returncode == 6, result.stdout + result.stderr
        assert expected in result.stderr and "Traceback" not in result.stderr
    shown = run_cli(["policy", "show", "--json"], env)
    assert json.loads(shown.stdout)["version"] == 0  # nothing was recorded


def test_apply_is_recorded_replayable_and_the_ledger_still_verifies(tmp_path: Path, env: dict[str, str]) -> None:
    before = json.loads(run_cli(["policy", "show", "--json"], env).stdout)
    assert (before["version"], before["recorded"], before["label"]) == (0, False, "version 0 (unrecorded)")
    folder = _copy(tmp_path)
    gate = folder / "gate.yaml"
    gate.write_text(gate.read_text().replace("answer_within_s: 3600", "answer_within_s: 1800"))
    applied = run_cli(["policy", "apply", str(folder), "--json"], env)
    assert applied.returncode == 0, applied.stderr
    record = json.loads(applied.stdout)
    assert record["version"] == 1 and record["applied_by"]
    assert "-answer_within_s: 3600\n+answer_within_s: 1800\n" in record["diff"]
    assert record["hashes"]["gate.yaml"] != before["hashes"]["gate.yaml"]
    assert record["hashes"]["limits.yaml"] == before["hashes"]["limits.yaml"]

    history = json.loads(run_cli(["policy", "show", "--history", "--json"], env).stdout)
    assert [version["version"] for version in history] == [1]
    verified = run_cli(["audit", "verify"], env)
    assert verified.returncode == 0 and verified.stdout.startswith("ledger intact: 2 events"), verified.stdout + verified.stderr

    data = Path(env["MAI_SAFETY_DATA_DIR"])
    app = make_app(env["MAI_SAFETY_DATABASE_URL"], data)
    try:  # a replay rebuilds the policy from the events alone, and new executions are judged by it
        (version,) = app.policy_history()
        assert "answer_within_s: 1800" in version.files["gate.yaml"]
        (change,) = app.policy_changes(since=version.applied_at)
        assert (change.version, change.changed_files) == (1, ["gate.yaml"])
        assert app.policy_changes(until="2000-01-01") == []
        assert app.policy.version == 1 and app.policy.rules.answer_within.total_seconds() == 1800
        execution = app.run(b"print(1)\n").execution_id
        events = app.history(execution)
        assert (events[0]["policy_version"], events[1]["event"], events[1]["policy_version"]) == (1, "Started", 1)
    finally:
        app.close()


def test_a_running_application_judges_new_executions_by_a_version_another_process_applied(
    tmp_path: Path, database_url: str
) -> None:
    """Two applications on one ledger (SQLite and Postgres): one applies, the other, already running,
    judges its next execution by the new version; one waiting from before keeps the version it was
    judged under when it is answered and runs."""
    data = tmp_path / "data"
    running, operator = make_app(database_url, data), make_app(database_url, data)
    try:
        running.assessor = FakeAssessor(RiskLevel.HIGH)  # until the policy reloads: then the one make_app gave
        waiting = running.run(b"import os\n")
        assert waiting.status == "awaiting_override"
        files = dict(operator.policy_in_force().files)
        files["gate.yaml"] = files["gate.yaml"].replace("answer_within_s: 3600", "answer_within_s: 600")
        assert operator.apply_policy(files).version == 1
        fresh = running.run(b"print(1)\n")
        assert running.history(fresh.execution_id)[0]["policy_version"] == 1
        assert running.policy.rules.answer_within.total_seconds() == 600
        answered = running.approve(waiting.execution_id, "confirmed")
        started = [event for event in running.history(answered.execution_id) if event["event"] == "Started"]
        assert [event["policy_version"] for event in started] == [0]  # judged and sized under version 0
        report = running.audit.verify()
        assert report.intact and report.complete, report.problems
    finally:
        running.close()
        operator.close()


def test_a_revision_records_a_diff_against_the_code_it_revises_and_history_shows_it(tmp_path: Path, env: dict[str, str]) -> None:
    app = make_app(env["MAI_SAFETY_DATABASE_URL"], Path(env["MAI_SAFETY_DATA_DIR"]))
    try:
        first = app.run(b"print(1)\n").execution_id
        second = app.run(b"print(2)\n", revises=first).execution_id
        assessed = app.history(second)[0]
        assert assessed["revises"] == first and "-print(1)\n+print(2)\n" in assessed["code_diff"]
        assert app.history(first)[0]["revises"] is None
    finally:
        app.close()
    shown = run_cli(["history", second], env)
    assert shown.returncode == 0 and "      -print(1)" in shown.stdout and "      +print(2)" in shown.stdout
    unknown = run_cli(["run", "-", "--revises", "00000000-0000-0000-0000-000000000000"], env, stdin=b"print(3)\n")
    assert unknown.returncode == 2 and "no execution" in unknown.stderr


@pytest.mark.parametrize("copy", [_copy_6441331, _copy_6bb7568])
def test_old_ledgers_read_their_assessments_and_starts_as_judged_by_an_unrecorded_policy(tmp_path: Path, copy: object) -> None:
    old_ledger = copy(tmp_path)  # type: ignore[operator]
    app = old_ledger.app()
    try:
        for execution in old_ledger.executions():
            events = app.history(execution)
            assert events[0]["policy_version"] is None and events[0]["code_diff"] is None
            assert all(event["policy_version"] is None for event in events if event["event"] == "Started")
        assert app.policy_in_force().version == 0
    finally:
        app.close()


def test_only_admin_applies_a_policy_through_the_service(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'service.sqlite'}"
    policies = PROJECT_ROOT / "policies"
    tokens = grant_tokens(
        url, policies, {"ops": ["admin"], "mai": ["submitter"], "eve": ["submitter"], "alice": ["security-officer"]}
    )
    files = {path.relative_to(policies).as_posix(): path.read_text() for path in sorted(policies.glob("**/*.yaml"))}
    files["gate.yaml"] = files["gate.yaml"].replace("answer_within_s: 3600", "answer_within_s: 900")
    weakened = dict(files, **{"gate.yaml": files["gate.yaml"].replace('- "security-officer"\n', '- "*"\n')})
    with running_server(tmp_path, url, policies) as server:
        with server.client(tokens["mai"]) as mai, server.client(tokens["alice"]) as alice, server.client(tokens["ops"]) as ops:
            for client in (mai, alice):
                refused = client.post("/v1/policies", json={"files": files})
                assert refused.status_code == 403, refused.text
            bad = ops.post("/v1/policies", json={"files": weakened})
            assert bad.status_code == 422 and "matches anyone" in bad.json()["detail"], bad.text
            # A file name is never a path out of the policy folder, even from an admin.
            for name in ("../escaped.yaml", "semgrep/../../escaped.yaml", str(tmp_path / "escaped.yaml")):
                escaping = ops.post("/v1/policies", json={"files": dict(files, **{name: "x: 1\n"})})
                assert escaping.status_code == 422 and "must stay inside the folder" in escaping.json()["detail"], escaping.text
            assert not list(tmp_path.rglob("escaped.yaml")) and not list(Path(tempfile.gettempdir()).glob("escaped.yaml"))
            applied = ops.post("/v1/policies", json={"files": files})
            assert applied.status_code == 200, applied.text
            assert applied.json()["version"] == 1 and "+answer_within_s: 900" in applied.json()["diff"]
            current = mai.get("/v1/policies/current").json()
            assert current["version"] == 1 and set(current["hashes"]) == set(files)

            # The running service judges the next submission by version 1, and records a revision's diff.
            first = mai.post("/v1/executions", json={"code": HIGH}).json()["execution_id"]
            revised = mai.post("/v1/executions", json={"code": HIGH.replace("true", "false"), "revises": first}).json()
            assessed = mai.get(f"/v1/executions/{revised['execution_id']}/events").json()[0]
            assert (assessed["policy_version"], assessed["revises"]) == (1, first)
            assert '-    subprocess.run(["sudo", "true"])' in assessed["code_diff"]
            with server.client(tokens["eve"]) as eve:  # another submitter may not name mai's execution
                hidden = eve.post("/v1/executions", json={"code": "print(1)\n", "revises": first})
                assert hidden.status_code == 404, hidden.text
        assert httpx.get(f"{server.url}/v1/policies/current").status_code == 401


def test_an_admin_policy_over_http_cannot_take_untrusted_code_off_gvisor(tmp_path: Path) -> None:
    """The attack of issue 23 (3): an admin token posts the shipped policy with untrusted code on
    runc; refused (422 naming the file and key), and the version in force stays 0."""
    url = f"sqlite:///{tmp_path / 'service.sqlite'}"
    policies = suite_policies()
    tokens = grant_tokens(url, policies, {"ops": ["admin"]})
    files = {path.relative_to(policies).as_posix(): path.read_text() for path in sorted(policies.glob("**/*.yaml"))}
    assert "    runtime: auto" in files["limits.yaml"]
    off_gvisor = dict(files, **{"limits.yaml": files["limits.yaml"].replace("    runtime: auto", "    runtime: runc")})
    with running_server(tmp_path, url, policies) as server, server.client(tokens["ops"]) as ops:
        refused = ops.post("/v1/policies", json={"files": off_gvisor})
        assert refused.status_code == 422, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert "limits.yaml: profiles.untrusted.runtime: runc" in refused.json()["detail"]
        assert ops.get("/v1/policies/current").json()["version"] == 0


def _outside_link(folder: Path) -> str:
    secret = folder.parent / "secret.txt"
    secret.write_text("not a policy\n")
    (folder / "stolen.yaml").symlink_to(secret)
    return "stolen.yaml leads to"


def _fifo(folder: Path) -> str:
    os.mkfifo(folder / "hangs.yaml")
    return "hangs.yaml is a FIFO"


def _oversized(folder: Path) -> str:
    (folder / "huge.yaml").write_bytes(b"#" * (1024 * 1024))
    return "huge.yaml is 1048576 bytes, over the limit"


@pytest.mark.parametrize("plant", [_outside_link, _fifo, _oversized])
def test_a_policy_folder_is_read_as_a_file_argument_is(tmp_path: Path, env: dict[str, str], plant: Any) -> None:
    """A symlink out of the folder, a FIFO or an oversized file is refused by name, with nothing
    read past its bound, nothing hung and nothing recorded."""
    folder = _copy(tmp_path)
    expected = plant(folder)
    for command in ("validate", "apply"):
        result = run_cli(["policy", command, str(folder)], env)
        assert result.returncode == 6, result.stdout + result.stderr
        assert expected in result.stderr and "Traceback" not in result.stderr
    assert json.loads(run_cli(["policy", "show", "--json"], env).stdout)["version"] == 0
