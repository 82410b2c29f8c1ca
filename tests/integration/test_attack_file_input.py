"""Attacks on FILE and standard input: what the caller names must never make the CLI (often root)
read a host file it was not given, hang, or exhaust memory. Each refusal is one line, exit 2, and
nothing is recorded."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from .cli_helpers import CLI, run_cli


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}", "MAI_SAFETY_ACTOR": "tester"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "fine.py").write_text("print('fine')\n")
    return folder


def _assert_refused(result: subprocess.CompletedProcess[str], tmp_path: Path, *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert not (tmp_path / "ledger.sqlite").exists(), "a refused input must record nothing"


def test_a_symlink_to_a_host_secret_is_refused_and_nothing_of_it_is_read(tmp_path: Path, folder: Path, env: dict[str, str]) -> None:
    (folder / "innocent.py").symlink_to("/etc/shadow")
    result = run_cli(["run", str(folder / "innocent.py")], env)
    _assert_refused(result, tmp_path, "/etc/shadow", "outside", "--follow-symlinks")
    assert "root:" not in result.stdout + result.stderr


def test_a_symlink_through_dotdot_out_of_the_named_directory_is_refused(tmp_path: Path, folder: Path, env: dict[str, str]) -> None:
    (tmp_path / "secret.py").write_text("print('not yours')\n")
    (folder / "escape.py").symlink_to("../secret.py")
    _assert_refused(run_cli(["run", str(folder / "escape.py")], env), tmp_path, "outside")


def test_a_symlink_that_stays_inside_the_named_directory_is_read(tmp_path: Path, folder: Path, env: dict[str, str]) -> None:
    (folder / "alias.py").symlink_to("fine.py")
    result = run_cli(["assess", str(folder / "alias.py")], env)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_given_as_file_is_refused_without_reading_it(tmp_path: Path, env: dict[str, str], device: str) -> None:
    _assert_refused(run_cli(["run", device], env), tmp_path, "character device", "not a regular file")


def test_a_symlink_to_a_device_is_refused(tmp_path: Path, folder: Path, env: dict[str, str]) -> None:
    (folder / "zero.py").symlink_to("/dev/zero")
    _assert_refused(run_cli(["run", str(folder / "zero.py"), "--follow-symlinks"], env), tmp_path, "character device")


def test_a_fifo_given_as_file_is_refused_at_once_instead_of_blocking(tmp_path: Path, folder: Path, env: dict[str, str]) -> None:
    os.mkfifo(folder / "pipe.py")
    _assert_refused(run_cli(["run", str(folder / "pipe.py")], env), tmp_path, "FIFO")


def test_a_socket_and_a_directory_are_refused(tmp_path: Path, folder: Path, env: dict[str, str]) -> None:
    import socket

    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(folder / "sock.py"))
        _assert_refused(run_cli(["run", str(folder / "sock.py")], env), tmp_path, "socket")
    _assert_refused(run_cli(["run", str(folder)], env), tmp_path, "directory")


def test_a_huge_file_is_refused_from_its_size_before_it_is_read(tmp_path: Path, folder: Path, env: dict[str, str]) -> None:
    huge = folder / "huge.py"
    with open(huge, "wb") as handle:
        handle.truncate(4 * 1024**3)  # sparse: 4 GiB on paper, nothing on disk
    _assert_refused(run_cli(["run", str(huge)], env), tmp_path, "4294967296 bytes", "limit")


@pytest.mark.parametrize("source", ["/dev/zero", "/dev/urandom"])
def test_endless_standard_input_is_cut_at_the_size_limit(tmp_path: Path, env: dict[str, str], source: str) -> None:
    full_env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    full_env.update(env, MAI_SAFETY_MAX_CODE_BYTES="65536")
    with open(source, "rb") as endless:
        result = subprocess.run(CLI + ["run", "-"], env=full_env, stdin=endless, capture_output=True, text=True, timeout=60)
    _assert_refused(result, tmp_path, "standard input", "over the limit of 65536 bytes")


def test_a_directory_argument_to_assess_skips_symlinks_leading_out_of_it(tmp_path: Path, folder: Path, env: dict[str, str]) -> None:
    (folder / "shadow.py").symlink_to("/etc/shadow")
    result = run_cli(["assess", "--json", str(folder)], env)
    assert result.returncode == 2
    assert '"path": "' + str(folder / "fine.py") in result.stdout
    assert "outside" in result.stdout and "root:" not in result.stdout


@pytest.mark.parametrize(
    ("flag", "words"),
    [("--bundle", "give the bundle file"), ("--checkpoint", "audit checkpoint"), ("--public-key", "audit public-key")],
)
def test_audit_files_that_are_devices_or_huge_are_refused_before_they_are_read(
    tmp_path: Path, env: dict[str, str], flag: str, words: str
) -> None:
    result = run_cli(["audit", "verify", flag, "/dev/zero"], env)
    assert result.returncode == 2 and "character device" in result.stderr and words in result.stderr, result.stderr
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as handle:
        handle.truncate(4 * 1024**3)
    result = run_cli(["audit", "verify", flag, str(huge)], env)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
