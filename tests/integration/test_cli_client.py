"""The CLI as a thin client: with MAI_SAFETY_URL set, the console script's commands go to a real
service through mai_safety.client, give the local CLI's texts and exit statuses, and import
nothing heavy (checked through sys.modules after each command, in the command's own process).
On a terminal (a real pseudo-terminal) a run longer than a second is shown live; the live view
cannot be fooled by what the program prints, and away from a terminal nothing changes."""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker
import pytest

from mai_safety.infrastructure.cli.text import print_report

from .cli_helpers import STARTED_PIDS, policies_with
from .service_helpers import Server, grant_tokens, running_server

HELLO = "print('hello from the sandbox')\n"
HIGH = 'import subprocess\ntry:\n    subprocess.run(["sudo", "true"])\nexcept OSError:\n    pass\nprint("confirmed and ran")\n'
BLOCKED = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n'
HEAVY = ("semgrep", "docker", "bandit", "eventsourcing", "fastapi", "uvicorn", "cryptography", "psycopg", "yaml", "mai_safety.application",
         # what a client process started for one call need not pay for: models (the CLI reads plain JSON), the
         # async machinery, httpx's own command line (rich, click, pygments), and the live view away from a terminal
         "pydantic", "pydantic_core", "asyncio", "rich", "click", "pygments")
#: Runs the console script's entry as `mai-safety ARGS...` would, then reports what it imported.
WRAPPER = (
    "import json, sys\n"
    "from mai_safety.infrastructure.cli.entry import main\n"
    "try:\n"
    "    code = main(sys.argv[2:])\n"
    "finally:\n"
    "    open(sys.argv[1], 'w').write(json.dumps(sorted(sys.modules)))\n"
    "sys.exit(code)\n"
)


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str
    heavy: list[str]


@dataclass
class World:
    server: Server
    tokens: dict[str, str]
    tmp: Path

    def cli(self, who: str | None, *args: str, stdin: str | None = None, url: str | None = None, env: dict[str, str] | None = None) -> Done:
        extra = env or {}
        env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
        env.update(extra)
        env["MAI_SAFETY_URL"] = url or self.server.url
        env["XDG_CONFIG_HOME"] = str(self.tmp / "no-config")  # no default token file
        if who:
            env["MAI_SAFETY_TOKEN"] = self.tokens.get(who, who)
        modules = self.tmp / "modules.json"
        process = subprocess.Popen(
            [sys.executable, "-c", WRAPPER, str(modules), *args], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        STARTED_PIDS.add(process.pid)
        stdout, stderr = process.communicate(stdin, timeout=180)
        loaded = json.loads(modules.read_text())
        heavy = [name for name in loaded if any(name == h or name.startswith(h + ".") for h in HEAVY)]
        assert "Traceback" not in stderr
        return Done(process.returncode, stdout, stderr, heavy)

    def cli_on_a_terminal(self, who: str, *args: str) -> Seen:
        """The command with a pseudo-terminal (100 columns, 40 rows) as its stdin, stdout and
        stderr, as a person at a shell runs it: every byte it writes, with the time it arrived."""
        env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
        env.update({"MAI_SAFETY_URL": self.server.url, "MAI_SAFETY_TOKEN": self.tokens[who], "TERM": "xterm-256color",
                    "XDG_CONFIG_HOME": str(self.tmp / "no-config")})
        modules = self.tmp / "modules.json"
        controller, terminal = os.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "-c", WRAPPER, str(modules), *args], env=env,
                                   stdin=terminal, stdout=terminal, stderr=terminal, close_fds=True)
        STARTED_PIDS.add(process.pid)
        os.close(terminal)
        chunks: list[tuple[float, bytes]] = []
        try:
            while time.monotonic() - started < 180:
                if select.select([controller], [], [], 0.5)[0]:
                    try:
                        data = os.read(controller, 65536)
                    except OSError:  # EIO: the terminal's last writer has gone
                        break
                    if not data:
                        break
                    chunks.append((time.monotonic() - started, data))
                elif process.poll() is not None:
                    break
        finally:
            os.close(controller)
            if process.poll() is None:
                process.kill()
        returncode = process.wait(timeout=60)
        loaded = json.loads(modules.read_text())
        return Seen(returncode, chunks, [name for name in loaded if name.split(".")[0] == "rich"])

    def report(self, who: str, execution_id: str) -> dict[str, Any]:
        with self.server.client(self.tokens[who]) as http:
            answer: dict[str, Any] = http.get(f"/v1/executions/{execution_id}").json()
            return answer


@dataclass
class Seen:
    """What a command wrote to its terminal: the bytes as they came, each with its time."""

    returncode: int
    chunks: list[tuple[float, bytes]]
    rich: list[str]

    @property
    def text(self) -> str:
        return b"".join(data for _, data in self.chunks).decode("utf-8", "replace").replace("\r\n", "\n")

    def first(self, needle: str) -> float:
        """When ``needle`` had first been written (the terminal's bytes up to then contain it)."""
        written = b""
        for arrived, data in self.chunks:
            written += data
            if needle.encode() in written:
                return arrived
        raise AssertionError(f"{needle!r} never reached the terminal")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("cli-client")
    policies = policies_with(tmp)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"], "alice": ["approver"], "sec": ["security-officer"], "audit": ["auditor"]})
    with running_server(tmp, database_url, policies) as server:
        yield World(server, tokens, tmp)


def test_run_goes_through_the_service_with_the_local_texts_and_imports_nothing_heavy(world: World, docker_client: docker.DockerClient) -> None:
    program = world.tmp / "hello.py"
    program.write_text(HELLO)
    shown = world.cli("mai", "run", str(program), "--timeout", "20", "--memory", "128m")
    assert shown.returncode == 0, shown.stderr
    assert shown.heavy == []
    lines = shown.stdout.splitlines()
    assert lines[0] == "level: LOW (run)"
    assert "  | hello from the sandbox" in lines and lines[-2].startswith("status: completed, exit code 0")
    execution_id = lines[-1].removeprefix("execution: ")

    exact = world.cli("mai", "run", "-", "--json", stdin="import sys\nsys.stdout.write('\\x1b[31mred')\nsys.exit(4)\n")
    assert exact.returncode == 1 and exact.heavy == []
    assert json.loads(exact.stdout)["stdout"] == "\x1b[31mred"

    history = world.cli("mai", "history", execution_id)
    assert history.returncode == 0 and history.heavy == []
    event_lines = [line for line in history.stdout.splitlines() if line.split()[0].isdigit()]  # not the observed record's lines
    assert [line.split()[2] for line in event_lines if "ResourceSampled" not in line] == ["Assessed", "Started", "Completed"]
    assert all(" by mai " in line for line in event_lines)
    events = json.loads(world.cli("mai", "history", execution_id, "--json").stdout)
    assert events[0]["event"] == "Assessed" and events[0]["chain"]["position"] >= 1

    status = world.cli("mai", "status")
    assert status.returncode == 0 and status.heavy == [] and "docker:" in status.stdout


def test_high_code_waits_and_only_another_principals_token_approves_it(world: World, docker_client: docker.DockerClient) -> None:
    waiting = world.cli("mai", "run", "-", stdin=HIGH)
    assert waiting.returncode == 3, waiting.stderr
    execution_id = waiting.stdout.splitlines()[-1].removeprefix("execution: ")
    assert "approver role and their own token" in waiting.stdout
    refused = world.cli("mai", "run", "-", "--confirm", stdin=HIGH)
    assert refused.returncode == 2 and "--confirm" in refused.stderr
    own = world.cli("mai", "approve", execution_id)
    assert own.returncode == 7 and "may not confirm" in own.stderr  # a submitter cannot answer the gate
    ran = world.cli("alice", "approve", execution_id, "--explanation", "reviewed")
    assert ran.returncode == 0, ran.stderr
    assert "  | confirmed and ran" in ran.stdout and ran.heavy == []

    blocked = world.cli("mai", "run", "-", stdin=BLOCKED)
    assert blocked.returncode == 3
    blocked_id = blocked.stdout.splitlines()[-1].removeprefix("execution: ")
    assert "security-officer role" in blocked.stdout
    no_reason = world.cli("sec", "approve", blocked_id)
    assert no_reason.returncode == 2 and "--explanation" in no_reason.stderr
    denied = world.cli("sec", "deny", blocked_id, "--reason", "no")
    assert denied.returncode == 4 and "status: rejected" in denied.stdout and denied.heavy == []

    another = world.cli("mai", "run", "-", stdin=HIGH).stdout.splitlines()[-1].removeprefix("execution: ")
    cancelled = world.cli("mai", "cancel", another, "--json")
    assert cancelled.returncode == 0 and json.loads(cancelled.stdout)["termination_reason"] == "cancelled"


def test_assess_goes_through_the_service(world: World) -> None:
    folder = world.tmp / "code"
    folder.mkdir()
    (folder / "fine.py").write_text(HELLO)
    (folder / "risky.py").write_text(BLOCKED)
    assessed = world.cli("mai", "assess", str(folder))
    assert assessed.returncode == 3 and assessed.heavy == []
    assert f"{folder / 'fine.py'}: LOW" in assessed.stdout and f"{folder / 'risky.py'}: BLOCKED" in assessed.stdout
    as_json = [json.loads(line) for line in world.cli("mai", "assess", str(folder / "fine.py"), "--json").stdout.splitlines()]
    assert as_json[0]["level"] == "LOW"
    assert world.cli("mai", "assess", str(folder), "--format", "sarif").returncode == 2


def test_failures_are_one_line_with_the_local_exit_statuses(world: World) -> None:
    unknown = world.cli("mai", "history", "00000000-0000-0000-0000-000000000000")
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    wrong = world.cli("mst_not_a_real_token", "status")
    assert wrong.returncode == 6 and "refused the token" in wrong.stderr
    nobody = world.cli(None, "status")
    assert nobody.returncode == 6 and "no token" in nobody.stderr
    down = world.cli("mai", "status", url="http://127.0.0.1:9")
    assert down.returncode == 5 and "is `mai-safety serve` running" in down.stderr
    over = world.cli("mai", "run", "-", "--timeout", "5000", stdin=HELLO)
    assert over.returncode == 2 and "above what the policy allows" in over.stderr


def test_the_operators_commands_stay_local_with_the_url_set(world: World, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env.update({"MAI_SAFETY_URL": world.server.url, "MAI_SAFETY_TOKEN": world.tokens["mai"],
                "MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'local.sqlite'}"})

    def local(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mai_safety.infrastructure.cli.entry", *args],
                              env=env, capture_output=True, text=True, timeout=120)

    granted = local("tokens", "create", "ops", "--role", "auditor", "--json")  # the operator's, on the host, as before
    assert granted.returncode == 0, granted.stderr  # MAI_SAFETY_URL and the token are known settings, not errors
    listed = local("tokens", "list", "--json")
    assert [token["principal"] for token in json.loads(listed.stdout)] == ["ops"]  # the local ledger's, not the service's four
    always_local = subprocess.run([sys.executable, "-m", "mai_safety.infrastructure.cli", "audit", "verify", "--json"],
                                  env=env, capture_output=True, text=True, timeout=120)
    assert always_local.returncode == 0 and json.loads(always_local.stdout)["intact"], always_local.stderr


# --- the reading commands: the service's ledger, never a local one ------------------------------------


def _service(world: World, who: str, path: str, **params: Any) -> Any:
    with world.server.client(world.tokens[who]) as http:
        response = http.get(path, params=params)
        assert response.status_code == 200, response.text
        return response.json()


def _without(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    return [{name: value for name, value in row.items() if name != key} for row in rows]


@pytest.fixture(scope="module")
def ran_and_waiting(world: World) -> tuple[str, str]:
    """One run that completed and one HIGH execution that waits, both on the service's ledger."""
    ran = world.cli("mai", "run", "-", "--timeout", "20", stdin=HELLO)
    assert ran.returncode == 0, ran.stderr
    waiting = world.cli("mai", "run", "-", "--task-id", "T-waits", stdin=HIGH)
    assert waiting.returncode == 3, waiting.stderr
    return ran.stdout.splitlines()[-1].removeprefix("execution: "), waiting.stdout.splitlines()[-1].removeprefix("execution: ")


def test_executions_and_pending_list_the_services_ledger_not_the_local_one(
    world: World, ran_and_waiting: tuple[str, str], docker_client: docker.DockerClient, tmp_path: Path
) -> None:
    ran, waiting = ran_and_waiting
    elsewhere = tmp_path / "another-ledger.sqlite"  # the client's own ledger setting, which these commands must not read
    local = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{elsewhere}"}

    listed = world.cli("audit", "executions", env=local)
    assert listed.returncode == 0 and listed.heavy == [], listed.stderr
    rows = {line.split()[0]: line.split()[2] for line in listed.stdout.splitlines()[1:]}
    assert rows[ran] == "completed" and rows[waiting] == "awaiting_override"
    assert listed.stdout.splitlines()[0].startswith("execution ")
    assert not elsewhere.exists()  # nothing local was even opened

    as_json = world.cli("audit", "executions", "--status", "awaiting_override", "--task", "T-waits", "--json", env=local)
    assert as_json.returncode == 0 and as_json.heavy == []
    assert json.loads(as_json.stdout) == _service(world, "audit", "/v1/executions", status="awaiting_override", task="T-waits")
    assert [row["execution_id"] for row in json.loads(as_json.stdout)] == [waiting]
    assert as_json.stdout == json.dumps(json.loads(as_json.stdout), indent=2) + "\n"  # laid out as the local command's

    waits = world.cli("alice", "pending", env=local)
    assert waits.returncode == 0 and waits.heavy == []
    assert any(line.split()[:4] == [waiting, "HIGH", "needs", "confirmation"] for line in waits.stdout.splitlines()), waits.stdout
    pending_json = world.cli("alice", "pending", "--json", env=local)
    assert _without(json.loads(pending_json.stdout), "seconds_left") == _without(_service(world, "alice", "/v1/pending"), "seconds_left")

    refused = world.cli("mai", "pending")
    assert refused.returncode == 7 and refused.stderr.count("\n") == 1 and refused.heavy == []
    bad = world.cli("audit", "executions", "--since", "yesterday")
    assert bad.returncode == 2 and "is not a time" in bad.stderr and bad.stderr.count("\n") == 1
    too_many = world.cli("audit", "executions", "--limit", "5000")
    assert too_many.returncode == 2 and "limit" in too_many.stderr and too_many.stderr.count("\n") == 1
    assert not elsewhere.exists()


def test_report_is_the_services_report_in_every_format(world: World, ran_and_waiting: tuple[str, str], tmp_path: Path) -> None:
    local = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'another-ledger.sqlite'}"}
    text = world.cli("audit", "report", env=local)
    assert text.returncode == 0 and text.heavy == [], text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("audit report, the beginning to now") and "audit verify passed" in lines[1]
    served = _service(world, "audit", "/v1/report")
    assert f"executions:  {served['executions']}" in lines and served["executions"] >= 2

    as_json = json.loads(world.cli("audit", "report", "--format", "json", env=local).stdout)
    assert {**as_json, "generated_at": None} == {**_service(world, "audit", "/v1/report"), "generated_at": None}

    page = tmp_path / "report.html"
    html = world.cli("audit", "report", "--format", "html", "--output", str(page), env=local)
    assert html.returncode == 0, html.stderr
    assert page.read_text().lstrip().lower().startswith("<!doctype html")
    assert set(html.heavy) <= {"mai_safety.application", "mai_safety.application.audit_report"}  # the renderer's data shape only

    nobody = world.cli("alice", "report")
    assert nobody.returncode == 7 and nobody.stderr.count("\n") == 1
    backwards = world.cli("audit", "report", "--since", "2030-01-02", "--until", "2030-01-01")
    assert backwards.returncode == 2 and "before it begins" in backwards.stderr and backwards.stderr.count("\n") == 1


def test_audit_verify_and_export_ask_the_service_and_its_bundle_verifies_here(
    world: World, ran_and_waiting: tuple[str, str], tmp_path: Path
) -> None:
    local = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'another-ledger.sqlite'}"}
    verified = world.cli("audit", "audit", "verify", env=local)
    assert verified.returncode == 0 and verified.heavy == [], verified.stderr
    assert verified.stdout.startswith("ledger intact: ") and "event MAC(s) checked" in verified.stdout
    as_json = json.loads(world.cli("audit", "audit", "verify", "--json", env=local).stdout)
    assert as_json["intact"] and as_json["head_position"] >= _service(world, "audit", "/v1/executions")[0]["position"]

    submitter = world.cli("mai", "audit", "verify")
    assert submitter.returncode == 7 and submitter.stderr.count("\n") == 1 and submitter.heavy == []
    ranged = world.cli("audit", "audit", "verify", "--from", "2")
    assert ranged.returncode == 2 and "--bundle" in ranged.stderr and ranged.stderr.count("\n") == 1

    bundle = tmp_path / "bundle.jsonl"
    exported = world.cli("audit", "audit", "export", "--output", str(bundle), env=local)
    assert exported.returncode == 0 and exported.heavy == [] and exported.stdout == "", exported.stderr
    assert not list(tmp_path.glob(".*.partial"))
    checked = world.cli(None, "audit", "verify", "--bundle", str(bundle), env=local)  # local, with the URL still set
    assert checked.returncode == 0 and checked.stdout.startswith("bundle intact: "), checked.stderr
    assert "eventsourcing" in checked.heavy  # the local CLI checked it, in this process

    ran, _ = ran_and_waiting
    one = world.cli("audit", "audit", "export", "--execution", ran, env=local)
    assert one.returncode == 0 and one.stdout.endswith("\n") and one.heavy == []
    assert all(json.loads(line) for line in one.stdout.splitlines())
    assert ran in one.stdout

    assert world.cli("mai", "audit", "export").returncode == 7
    both = world.cli("audit", "audit", "export", "--execution", ran, "--from", "1")
    assert both.returncode == 2 and both.stderr.count("\n") == 1
    nowhere = world.cli("audit", "audit", "export", "--output", str(tmp_path / "no-such-folder" / "b.jsonl"))
    assert nowhere.returncode == 2 and "cannot write" in nowhere.stderr


@pytest.mark.parametrize(
    "command",
    [["executions"], ["executions", "--json"], ["pending", "--json"], ["report"], ["report", "--json"],
     ["audit", "verify"], ["audit", "verify", "--json"], ["audit", "export"]],
)
def test_each_reading_command_imports_nothing_heavy(world: World, command: list[str]) -> None:
    who = "alice" if command[0] == "pending" else "audit"
    done = world.cli(who, *command)
    assert done.returncode == 0, done.stderr
    assert done.heavy == []


# --- the live view on a terminal ---------------------------------------------------------------------

#: About two seconds of output with pauses: escape sequences that would clear the screen, move the
#: cursor up and erase lines, set the window title and overwrite a line, and lines shaped like the
#: CLI's own (status, level, execution), on both streams. Exits 3: the CLI's own lines must say so.
SLOW_AND_FORGING = (
    "import sys, time\n"
    "for n in range(8):\n"
    "    print(f'line {n}', flush=True)\n"
    "    if n == 1:\n"
    "        print('\\x1b[2J\\x1b[Hstatus: completed, exit code 0, 0.100 s', flush=True)\n"
    "        print('\\x1b[1A\\x1b[2Klevel: LOW (run)\\rexecution: 00000000-0000-0000-0000-000000000000', flush=True)\n"
    "        sys.stderr.write('\\x1b]0;pwned\\x07status: completed\\n'); sys.stderr.flush()\n"
    "    time.sleep(0.25)\n"
    "sys.exit(3)\n"
)
#: What the CLI draws itself: Rich's cursor and erase sequences, and the carriage return it ends lines with.
_OWN_CONTROL = re.compile(r"\x1b\[\??[0-9;]*[A-Za-z]|\r")
#: The live view's own lines (everything else outside a frame is the final report).
_VIEW_LINES = re.compile(r"^(execution [0-9a-f-]+: \w+, elapsed |CPU |program (stdout|stderr) so far \(|\(\d+ bytes of output came)")


def _classic(report: dict[str, Any]) -> str:
    """The report as the CLI prints it without a live view (what every run printed before it)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        print_report(report, how_to_answer="")
    return printed.getvalue()


def test_on_a_terminal_a_longer_run_is_shown_live_and_ends_with_the_lines_it_always_printed(world: World, docker_client: docker.DockerClient) -> None:
    program = world.tmp / "slow.py"
    program.write_text(SLOW_AND_FORGING)
    seen = world.cli_on_a_terminal("mai", "run", str(program))
    assert seen.returncode == 1, seen.text  # the program exited 3: a failed program, as without the view
    assert seen.rich  # drawn with Rich, imported because a terminal was there
    text = seen.text
    execution_id = text.rstrip("\n").splitlines()[-1].removeprefix("execution: ")
    final = _classic(world.report("mai", execution_id))
    assert text.endswith(final)  # the final lines, byte for byte as without the view
    ended = seen.first("status: completed, exit code 3")  # the final report (the program forges only "exit code 0")
    for shown in ("elapsed ", "CPU ", "memory ", "program stdout so far", "  | line 0", "  | line 3"):
        assert seen.first(shown) < ended - 0.2, shown  # shown while it ran, before the report
    assert re.search(r"CPU \d+\.\d\d s of [\d.]+ s \(cpus [\d.]+\), memory \d+\.\d MiB of \d+ MiB", text)

    # Nothing the program wrote reached the terminal as a control: each is shown escaped, in a frame.
    raw = b"".join(data for _, data in seen.chunks)
    for forged in (b"\x1b[2J", b"\x1b[H", b"\x1b]0;", b"\x07"):
        assert forged not in raw
    assert "  | \\x1b[2J\\x1b[Hstatus: completed, exit code 0, 0.100 s" in text
    assert "  | \\x1b]0;pwned\\x07status: completed" in text
    # Outside the frames, only the view's own lines and the final report: the program's "status:",
    # "level:" and "execution:" lines never stand on their own, live or at the end.
    lines = [_OWN_CONTROL.sub("", line) for line in text.split("\n")]
    own = [line for line in lines if line and not line.startswith("  | ") and not _VIEW_LINES.match(line)]
    assert own == [line for line in final.splitlines() if not line.startswith("  | ")]
    assert [line for line in own if line.startswith("status:")] == [next(line for line in final.splitlines() if line.startswith("status: "))]
    assert "exit code 3" in own[-2]


def test_away_from_a_terminal_or_with_json_nothing_changes(world: World, docker_client: docker.DockerClient) -> None:
    program = world.tmp / "slow.py"
    program.write_text(SLOW_AND_FORGING)
    piped = world.cli("mai", "run", str(program))
    assert piped.returncode == 1 and piped.heavy == []  # rich included: no terminal, no view
    execution_id = piped.stdout.splitlines()[-1].removeprefix("execution: ")
    assert piped.stdout == _classic(world.report("mai", execution_id))

    as_json = world.cli_on_a_terminal("mai", "run", str(program), "--json")
    assert as_json.returncode == 1 and as_json.rich == []
    report = json.loads(as_json.text)
    assert as_json.text == json.dumps(world.report("mai", report["execution_id"])) + "\n"  # one JSON object, nothing drawn


def test_approve_on_a_terminal_shows_the_run_it_started_live(world: World, docker_client: docker.DockerClient) -> None:
    slow_high = HIGH + "import time\nfor n in range(8):\n    print(f'approved {n}', flush=True)\n    time.sleep(0.25)\n"
    execution_id = world.cli("mai", "run", "-", stdin=slow_high).stdout.splitlines()[-1].removeprefix("execution: ")
    seen = world.cli_on_a_terminal("alice", "approve", execution_id, "--explanation", "reviewed")
    assert seen.returncode == 0, seen.text
    assert seen.text.endswith(_classic(world.report("alice", execution_id)))
    ended = seen.first("status: completed, exit code 0")
    assert seen.first("elapsed ") < ended - 0.2 and seen.first("  | approved 2") < ended - 0.2  # its history's OverrideRequested did not stop the view
