"""Issue 23 (1), as the attack: the default SQLite ledger was made 0644 in a 0755 folder, so every
local user read every submitter's code, output and findings. Local mode keeps the data folder
0700 and everything it keeps there (and in the state and configuration folders) 0600, whatever
the caller's umask; a ledger left readable is tightened when opened; one of another user's is
refused in one line."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from mai_safety.domain.access import Role

from .cli_helpers import CLI, STARTED_PIDS, run_cli, suite_policies
from .ledger_helpers import make_app

ROOT = os.geteuid() == 0


def _modes(folder: Path) -> dict[str, str]:
    """Every folder and file under ``folder`` (itself included) whose group or others have any bit."""
    found = {}
    for path in [folder, *folder.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        if mode & 0o077 and not path.is_symlink():
            found[str(path.relative_to(folder.parent))] = f"{mode:04o}"
    return found


def _as_nobody(*command: str) -> subprocess.CompletedProcess[str]:
    """``command`` as a second local user (nobody), as another person on the host would run it."""
    return subprocess.run(
        ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command],
        capture_output=True, text=True, timeout=30, check=False,
    )


@pytest.fixture
def home() -> Iterator[Path]:
    """A home another user may pass through, as many are (0755), with its ~/.local/share already
    there (0755): what is kept below it is protected by its own modes or not at all."""
    folder = Path(tempfile.mkdtemp(prefix="mai-safety-home-", dir="/tmp"))
    os.chmod(folder, 0o755)
    (folder / ".local" / "share").mkdir(parents=True, mode=0o755)
    os.chmod(folder / ".local", 0o755)
    os.chmod(folder / ".local" / "share", 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_fresh_run_with_umask_022_keeps_the_ledger_from_every_other_local_user(home: Path, docker_client: docker.DockerClient) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MAI_SAFETY_", "XDG_"))}
    env.update({"HOME": str(home), "MAI_SAFETY_POLICIES": str(suite_policies())})
    with subprocess.Popen(
        [*CLI, "run", "-", "--json"], env=env, umask=0o022, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    ) as process:
        STARTED_PIDS.add(process.pid)
        stdout, stderr = process.communicate("print(6 * 7)\n", timeout=180)
    assert process.returncode == 0, stderr
    data = home / ".local" / "share" / "mai-safety"
    ledger = data / "ledger.sqlite"
    assert ledger.is_file() and b"print(6 * 7)" in ledger.read_bytes()  # the code is in there
    kept = [data, home / ".local" / "state" / "mai-safety", home / ".config" / "mai-safety"]
    assert all(folder.is_dir() for folder in kept) and (kept[2] / "signing-key.pem").is_file()
    assert {name: mode for folder in kept for name, mode in _modes(folder).items()} == {}
    if not ROOT:
        pytest.skip("reading as a second local user needs root to switch to it (setpriv)")
    for attempt in (("cat", str(ledger)), ("ls", str(data))):
        denied = _as_nobody(*attempt)
        assert denied.returncode != 0 and "Permission denied" in denied.stderr, denied


def test_a_ledger_left_readable_is_tightened_when_opened_with_its_wal_and_shm(tmp_path: Path) -> None:
    """What an older version left (a 0755 folder, a 0644 ledger, WAL, SHM, lock and policy folder)
    is made owner-only by the next process that opens it; what else someone keeps there is not ours."""
    data = tmp_path / "data"
    url = f"sqlite:///{data / 'ledger.sqlite'}"
    umask = os.umask(0o022)
    try:
        older = make_app(url, data)
        older.grant_token("mai", [Role.SUBMITTER])  # the ledger, its WAL and SHM, open
    finally:
        os.umask(umask)
    try:
        left = [data / name for name in ("ledger.sqlite", "ledger.sqlite-wal", "ledger.sqlite-shm")]
        assert all(path.exists() for path in left)
        assert _modes(data) == {}  # made owner-only under umask 022, the WAL and SHM as the ledger
        (data / "policies" / "v1-old").mkdir(parents=True)
        (data / "policies" / "v1-old" / "gate.yaml").write_text("version: 1\n")
        (data / "admission.lock").write_text("")
        (data / "notes.txt").write_text("the owner's own\n")
        for path in [data, *data.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        assert len(_modes(data)) == 9
        newer = make_app(url, data)
        try:
            assert _modes(data) == {"data/notes.txt": "0644"}
            assert newer.tokens()[0].principal == "mai"
        finally:
            newer.close()
    finally:
        older.close()


@pytest.mark.skipif(not ROOT, reason="giving a ledger to another user needs root")
def test_a_ledger_that_belongs_to_another_user_is_refused_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"MAI_SAFETY_DATA_DIR": str(data), "MAI_SAFETY_POLICIES": str(suite_policies())}
    assert run_cli(["tokens", "create", "mai", "--role", "submitter"], env).returncode == 0
    os.chown(data / "ledger.sqlite", 65534, 65534)  # nobody's: not this user's to open, or to tighten
    refused = run_cli(["tokens", "list"], env)
    assert refused.returncode == 6, refused.stderr
    assert f"the ledger {data / 'ledger.sqlite'} belongs to uid 65534 (nobody), not to this user" in refused.stderr
    assert "Traceback" not in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
