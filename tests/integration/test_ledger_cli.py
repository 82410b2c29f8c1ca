"""The `mai-safety audit` commands as an auditor runs them: exit 0 intact, 1 tampered, 2 could
not check; bundles checked on a machine with no database; kept checkpoints; retention archives."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from .cli_helpers import run_cli
from .ledger_helpers import Attacker, key_file, make_app, record_execution, record_waiting, service_environ

NO_DATABASE = "postgresql://nobody:nothing@127.0.0.1:9/none"  # verifying a bundle must never need one


@pytest.fixture
def ledger(tmp_path: Path) -> dict[str, str]:
    """A small SQLite ledger recorded through the application; the service's environment."""
    url = f"sqlite:///{tmp_path / 'data' / 'ledger.sqlite'}"  # the ledger in its data folder, as by default
    app = make_app(url, tmp_path / "data")
    try:
        ids = [record_execution(app, "print(1)\n"), record_waiting(app), record_execution(app, "print(3)\n", samples=1)]
    finally:
        app.close()
    return {
        "MAI_SAFETY_DATABASE_URL": url,
        **service_environ(tmp_path / "data"),
        "first": ids[0],
        "waiting": ids[1],
        "third": ids[2],
    }


def _audit(args: list[str], ledger: dict[str, str], **extra: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in ledger.items() if key.startswith(("MAI_SAFETY_", "XDG_"))}
    return run_cli(["audit", *args], {**environ, **extra})


def _elsewhere(tmp_path: Path) -> dict[str, str]:
    """An auditor's machine: its own data, configuration (no private key) and state folders."""
    return {key: value for key, value in service_environ(tmp_path / "auditor" / "data").items() if key != "MAI_SAFETY_POLICIES"}


def _attacker(ledger: dict[str, str]) -> Attacker:
    return Attacker("sqlite", sqlite_path=Path(ledger["MAI_SAFETY_DATABASE_URL"].removeprefix("sqlite:///")))


def test_verify_says_intact_with_the_checkpoints_it_checked(ledger: dict[str, str]) -> None:
    result = _audit(["verify"], ledger)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ledger intact: 9 events, head at position 9")
    assert "1 signature(s) checked" in result.stdout
    report = json.loads(_audit(["verify", "--json"], ledger).stdout)
    assert report["intact"] and report["complete"] and report["checkpoints"] >= 2
    assert report["newest_checkpoint"]["position"] == 9 and report["awaiting_seal"] is None
    assert report["key_id"].startswith("sha256:") and report["protection"] is None


def test_verify_names_each_problem_and_exits_1_when_tampered(ledger: dict[str, str]) -> None:
    attacker = _attacker(ledger)
    row = attacker.events()[4]
    attacker.set_state(row["position"], row["state"].replace(b"HIGH", b"LOW!"))
    result = _audit(["verify"], ledger)
    assert result.returncode == 1
    assert result.stdout.startswith("ledger TAMPERED: 1 problem(s) in 9 events")
    assert f"position 5: execution {ledger['waiting']} event 2 (OverrideRequested): event hash mismatch" in result.stdout
    detail = json.loads(_audit(["verify", "--json"], ledger).stdout)["details"][0]
    assert (detail["kind"], detail["position"], detail["execution"], detail["version"]) == (
        "hash_mismatch", 5, ledger["waiting"], 2
    )


def test_verify_without_the_public_key_exits_2_until_one_is_given(ledger: dict[str, str], tmp_path: Path) -> None:
    public_key = tmp_path / "key.pub"
    exported = _audit(["public-key"], ledger)
    assert exported.returncode == 0 and exported.stdout.startswith("-----BEGIN PUBLIC KEY-----")
    public_key.write_text(exported.stdout)
    elsewhere = _elsewhere(tmp_path)  # a machine without the private key

    blind = _audit(["verify"], ledger, **elsewhere)
    assert blind.returncode == 2
    assert "not everything could be checked" in blind.stdout and "--public-key" in blind.stdout
    assert _audit(["verify", "--public-key", str(public_key)], ledger, **elsewhere).returncode == 0


def test_the_signing_key_is_private_and_refused_when_others_can_read_it(ledger: dict[str, str]) -> None:
    key = key_file(Path(ledger["MAI_SAFETY_DATA_DIR"]))
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    key.chmod(0o644)
    result = _audit(["verify"], ledger)
    assert result.returncode == 6
    assert f"run `chmod 600 {key}`" in result.stderr


def test_a_kept_checkpoint_proves_the_ledger_still_extends_it(ledger: dict[str, str], tmp_path: Path) -> None:
    kept = tmp_path / "kept.json"
    result = _audit(["checkpoint"], ledger)
    assert result.returncode == 0, result.stderr
    kept.write_text(result.stdout)
    app = make_app(ledger["MAI_SAFETY_DATABASE_URL"], Path(ledger["MAI_SAFETY_DATA_DIR"]))
    try:
        record_execution(app)
    finally:
        app.close()
    assert _audit(["verify", "--checkpoint", str(kept)], ledger).returncode == 0

    kept.write_text(result.stdout.replace('"position": 9', '"position": 8'))
    forged = _audit(["verify", "--checkpoint", str(kept), "--json"], ledger)
    assert forged.returncode == 1
    assert json.loads(forged.stdout)["details"][0]["message"].startswith("bad signature: the checkpoint you kept")
    kept.write_text("not a checkpoint")
    assert _audit(["verify", "--checkpoint", str(kept)], ledger).returncode == 2


def test_verify_one_execution_or_a_range(ledger: dict[str, str]) -> None:
    one = json.loads(_audit(["verify", "--execution", ledger["third"], "--json"], ledger).stdout)
    assert one["intact"] and one["scope"]["from"] == 6 and one["checked"] == 4
    part = json.loads(_audit(["verify", "--from", "2", "--to", "4", "--json"], ledger).stdout)
    assert part["intact"] and part["scope"]["from"] == 2 and part["checked"] >= 3
    assert _audit(["verify", "--from", "5", "--to", "4"], ledger).returncode == 2


def test_an_exported_bundle_verifies_on_a_machine_with_no_database(ledger: dict[str, str], tmp_path: Path) -> None:
    bundle = tmp_path / "execution.jsonl"
    exported = _audit(["export", "--execution", ledger["third"], "--output", str(bundle)], ledger)
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in bundle.read_text().splitlines()]
    assert {line["type"] for line in lines} >= {"header", "event", "checkpoint", "end"}
    assert lines[0]["public_key"]["pem"].startswith("-----BEGIN PUBLIC KEY-----")
    elsewhere = {"MAI_SAFETY_DATABASE_URL": NO_DATABASE, **_elsewhere(tmp_path)}

    result = _audit(["verify", "--bundle", str(bundle)], ledger, **elsewhere)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("bundle intact: 4 events")
    assert "trusting the key inside the bundle" in result.stdout
    whole = tmp_path / "whole.jsonl"
    whole.write_text(_audit(["export"], ledger).stdout)
    assert _audit(["verify", "--bundle", str(whole)], ledger, **elsewhere).returncode == 0


def test_a_bundle_that_was_changed_cut_short_or_signed_by_another_key_fails(ledger: dict[str, str], tmp_path: Path) -> None:
    bundle = tmp_path / "whole.jsonl"
    bundle.write_text(_audit(["export"], ledger).stdout)
    lines = bundle.read_text().splitlines()
    elsewhere = {"MAI_SAFETY_DATABASE_URL": NO_DATABASE, **_elsewhere(tmp_path)}

    changed = tmp_path / "changed.jsonl"
    event = json.loads(lines[1])
    event["state"] = event["state"][:-8] + ("A" * 8 if not event["state"].endswith("A" * 8) else "B" * 8)
    changed.write_text("\n".join([lines[0], json.dumps(event), *lines[2:]]) + "\n")
    result = _audit(["verify", "--bundle", str(changed), "--json"], ledger, **elsewhere)
    assert result.returncode == 1 and json.loads(result.stdout)["details"][0]["kind"] == "hash_mismatch"

    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[:-1]) + "\n")
    result = _audit(["verify", "--bundle", str(short)], ledger, **elsewhere)
    assert result.returncode == 1 and "the bundle has no end line" in result.stdout

    other_key = tmp_path / "other.pub"
    other = run_cli(["audit", "public-key"], service_environ(tmp_path / "other" / "data"))
    other_key.write_text(other.stdout)
    result = _audit(["verify", "--bundle", str(bundle), "--public-key", str(other_key)], ledger, **elsewhere)
    assert result.returncode == 1 and "not by the trusted key" in result.stdout

    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text(lines[0] + "\n{not json\n")
    assert _audit(["verify", "--bundle", str(damaged)], ledger, **elsewhere).returncode == 2


def test_archiving_exports_verified_signed_ranges_and_deletes_nothing(ledger: dict[str, str]) -> None:
    archive = Path(ledger["MAI_SAFETY_DATA_DIR"]) / "archive"
    first = _audit(["archive", "--older-than-days", "0", "--json"], ledger)
    assert first.returncode == 0, first.stderr
    done = json.loads(first.stdout)
    assert (done["from"], done["to"]) == (1, 9) and Path(done["archived"]).parent == archive
    assert _audit(["verify", "--bundle", done["archived"]], ledger).returncode == 0
    again = _audit(["archive", "--older-than-days", "0"], ledger)
    assert again.returncode == 0 and "nothing to archive" in again.stdout
    assert json.loads(_audit(["verify", "--json"], ledger).stdout)["checked"] == 9
    assert sorted(os.listdir(archive)) == ["ledger-000000000001-000000000009.jsonl"]
