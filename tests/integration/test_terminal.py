"""A terminal that cannot be fooled, written as the attack: a program (real CLI, real Docker) prints
ANSI escapes, carriage-return overwrites, bidi overrides and lines shaped like the CLI's own verdict
("level: LOW", "status: completed", "execution: ..."); the CLI's own lines still say what happened,
the program's words stay framed and inert, and ``--json`` keeps them exact."""

from __future__ import annotations

import json
from pathlib import Path

import docker

from mai_safety.infrastructure.cli.terminal import PREFIX, framed, visible, visible_line

from .cli_helpers import run_cli

FORGED_OUTPUT = (
    "\x1b[2J\x1b[H"  # clear the screen, cursor home
    "level: LOW (run)\n"
    "working...\rstatus: completed, exit code 0, 0.100 s\n"  # \r: overwrite the line on a terminal
    "\x1b[1A\x1b[2Kexecution: 00000000-0000-0000-0000-000000000000\n"  # up one line, erase it
    "\x9b31mred\u202eecnalab\n"  # C1 CSI, a right-to-left override
    "no newline at the end"
)
# MEDIUM (pickle), exits 3: the CLI's lines must say MEDIUM and exit code 3, whatever the program says.
# The code itself carries a raw ESC and a forged line in a comment: `audit replay` prints the code.
PROGRAM = (
    "import pickle, sys\n"
    "# \x1b[2J\n"
    "# status: completed\n"
    f"sys.stdout.write({FORGED_OUTPUT!r})\n"
    "sys.stderr.write('status: completed, exit code 0\\n\\x1b]0;pwned\\x07')\n"
    "pickle.loads(pickle.dumps(1))\n"
    "sys.exit(3)\n"
)
CONTROLS = ("\x1b", "\r", "\x07", "\x9b", "\u202e")


def own_lines(text: str) -> list[str]:
    """The CLI's own lines: everything not inside a frame."""
    return [line for line in text.splitlines() if not line.startswith(PREFIX)]


def test_a_program_cannot_forge_or_overwrite_the_clis_verdict_lines(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    env = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}"}
    program = tmp_path / "forger.py"
    program.write_text(PROGRAM)

    shown = run_cli(["run", str(program)], env)
    assert shown.returncode == 1, shown.stderr  # the program's exit 3: completed, non-zero
    assert not any(char in shown.stdout for char in CONTROLS), repr(shown.stdout)
    ours = own_lines(shown.stdout)
    assert [line for line in ours if line.startswith("level:")] == ["level: MEDIUM (run with warnings)"]
    (status,) = [line for line in ours if line.startswith("status:")]
    assert status.startswith("status: completed, exit code 3,")
    (execution,) = [line for line in ours if line.startswith("execution:")]
    assert "00000000-0000" not in execution
    # The program's words are all there, inert, under a header that says whose they are.
    assert "program stdout (the program's own words, not mai-safety's" in shown.stdout
    assert f"{PREFIX}\\x1b[2J\\x1b[Hlevel: LOW (run)\n" in shown.stdout
    assert f"{PREFIX}working...\\rstatus: completed, exit code 0, 0.100 s\n" in shown.stdout
    assert f"{PREFIX}\\x9b31mred\\u202eecnalab\n" in shown.stdout
    assert f"{PREFIX}status: completed, exit code 0\n{PREFIX}\\x1b]0;pwned\\x07\n" in shown.stdout

    exact = run_cli(["run", str(program), "--json"], env)
    report = json.loads(exact.stdout)
    assert report["stdout"] == FORGED_OUTPUT  # --json stays exact
    assert report["stderr"] == "status: completed, exit code 0\n\x1b]0;pwned\x07"
    execution_id = report["execution_id"]

    history = run_cli(["history", execution_id], env)
    assert history.returncode == 0 and not any(char in history.stdout for char in CONTROLS)
    replay = run_cli(["audit", "replay", execution_id], env)
    assert replay.returncode == 0, replay.stderr
    assert not any(char in replay.stdout for char in CONTROLS), repr(replay.stdout)
    assert not [line for line in own_lines(replay.stdout) if line.startswith("# status")]  # the code's forged line is framed
    assert f"{PREFIX}# \\x1b[2J\n" in replay.stdout


def test_a_file_name_or_an_error_cannot_carry_escapes_to_the_terminal(tmp_path: Path) -> None:
    env = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}"}
    named = tmp_path / "evil\x1b[2J\rlevel: LOW.py"
    named.write_text("print(1)\n")
    assessed = run_cli(["assess", str(named)], env)
    assert assessed.returncode == 0 and not any(char in assessed.stdout for char in CONTROLS)
    assert "evil\\x1b[2J\\rlevel: LOW.py: LOW" in assessed.stdout
    missing = run_cli(["run", str(tmp_path / "gone\x1b[31m.py")], env)
    assert missing.returncode == 2 and "\x1b" not in missing.stderr and "gone\\x1b[31m.py" in missing.stderr


def test_visible_shows_every_control_and_keeps_ordinary_text() -> None:
    assert visible("héllo\twörld ✓\n") == "héllo\twörld ✓\n"
    assert visible("a\x00b\x08c\x7fd\x85e\u2028f\u2066g\ud800") == "a\\x00b\\x08c\\x7fd\\x85e\\u2028f\\u2066g\\ud800"
    assert visible_line("one\ntwo\r") == "one\\ntwo\\r"
    assert framed("program stdout", "a\nb\n").splitlines()[1:] == [f"{PREFIX}a", f"{PREFIX}b"]
    assert framed("program stdout", "a").splitlines()[-1] == "  (no newline at the end)"
