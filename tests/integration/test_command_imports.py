"""Issue #29: no command imports what it does not use. Each command runs in a fresh interpreter
(the console script's ``entry.main``), and the modules it loaded are read back from ``sys.modules``:
matplotlib only for the HTML report's charts, the analyzers only where code is assessed, Docker's
client only where the engine is asked, and nothing of the ledger, Docker or the analyzers in the
client of a service. No Docker is needed:
the local commands read an empty SQLite ledger of the test's own, the client's service is not there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: Runs one command line through the console script's door and writes the loaded modules to a file.
PROBE = """
import json, sys
from mai_safety.infrastructure.cli.entry import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit:
    pass
with open(sys.argv[2], "w") as out:
    json.dump(sorted(sys.modules), out)
"""

HEAVY = ("matplotlib", "bandit", "semgrep", "eventsourcing", "docker", "fastapi", "uvicorn", "pydantic")


def loaded_by(args: list[str], tmp_path: Path, **env: str) -> set[str]:
    """The heavy top-level packages ``mai-safety ARGS`` imported."""
    modules_file = tmp_path / "modules.json"
    full_env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    full_env.update(
        MAI_SAFETY_DATA_DIR=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_STATE_HOME=str(tmp_path / "state"), XDG_RUNTIME_DIR=str(tmp_path / "runtime"), **env,
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args), str(modules_file)], env=full_env, cwd=tmp_path,
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )
    assert modules_file.exists(), done.stderr
    return {name.split(".")[0] for name in json.loads(modules_file.read_text())} & set(HEAVY)


UNKNOWN_ID = "00000000-0000-0000-0000-000000000000"


@pytest.mark.parametrize(
    "args",
    [["history", UNKNOWN_ID], ["executions", "--json"], ["pending"], ["report", "--format", "text"], ["audit", "verify"]],
)
def test_a_local_command_that_reads_the_ledger_imports_neither_the_analyzers_nor_docker_nor_matplotlib(args: list[str], tmp_path: Path) -> None:
    loaded = loaded_by(args, tmp_path)
    assert "eventsourcing" in loaded  # it did read the ledger
    assert not loaded & {"matplotlib", "bandit", "semgrep", "docker"}


def test_only_the_html_report_imports_matplotlib_for_its_charts(tmp_path: Path) -> None:
    assert "matplotlib" in loaded_by(["report", "--format", "html"], tmp_path)


def test_assess_imports_the_analyzers_and_no_charts(tmp_path: Path) -> None:
    (tmp_path / "hello.py").write_text("print('hello')\n")
    loaded = loaded_by(["assess", "hello.py"], tmp_path)
    assert "bandit" in loaded
    assert "matplotlib" not in loaded


@pytest.mark.parametrize("args", [["run", "hello.py"], ["history", UNKNOWN_ID], ["executions"], ["report", "--format", "text"]])
def test_the_client_of_a_service_imports_nothing_of_the_ledger_docker_or_the_analyzers(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "hello.py").write_text("print('hello')\n")
    loaded = loaded_by(args, tmp_path, MAI_SAFETY_URL="http://127.0.0.1:9", MAI_SAFETY_TOKEN="not-a-token")
    assert loaded == set()
