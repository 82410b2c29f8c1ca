"""Does the observed record show the act? (issue #28's goal: of the evasive programs that run, the
observed record shows the dangerous act for at least 90%.)

Each evasive program of a blind set (tests/corpus/blind4 by default) is run in the sandbox under
gVisor with the observed runtime (``runsc-observed``, decision 0044), past the gate (the sandbox port
is called directly: this measures the record, not the assessment), no network, untrusted limits, a
short wall clock. Its observed record is then read for the act its label states, by one rule per
kind of act, from outside the code:

- a shell or reaching tool executed, a sensitive path opened, a connection attempted, a removal
  outside its folders or a signal beyond its own processes (domain.observed.divergences, as for
  code rated LOW), or
- for persistence, any file opened to write outside the working folder or a sensitive one;
  for a fork bomb, more than 20 processes or clones counted.

A program that cannot get as far as its act without a network (it waits for a download first)
still shows its connection attempt. The programs are real: they run only in the sandbox.

As written, the sandbox's home (``/workspace``, ``~``) is empty: a program that looks for keys to
take finds none and does nothing to see. ``--home`` plants what a developer's home holds (HOME
below, the same for every program): the product's premise is a sandbox that holds a user's files.

    flock /tmp/mai-docker.lock .venv/bin/python bench/observed_acts_bench.py [--set blind4] [--timeout 8] [--home]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import uuid
from collections import Counter
from pathlib import Path

from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.limits import ResourceLimits
from mai_safety.domain.observed import divergences, inside_own_folders, is_sensitive
from mai_safety.infrastructure import bootstrap as bootstrapping
from mai_safety.infrastructure.settings import Settings

from runtime_bench import policies_for  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[1]
#: A developer's home, planted with --home: keys, cloud and tool credentials, shell start-up files, work.
HOME = {
    ".ssh/id_ed25519": b"-----BEGIN OPENSSH PRIVATE KEY-----\nbench\n-----END OPENSSH PRIVATE KEY-----\n",
    ".ssh/id_rsa": b"-----BEGIN OPENSSH PRIVATE KEY-----\nbench\n-----END OPENSSH PRIVATE KEY-----\n",
    ".ssh/known_hosts": b"git.example.org ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBench\n",
    ".aws/credentials": b"[default]\naws_access_key_id = AKIABENCH\naws_secret_access_key = bench\n",
    ".config/gcloud/application_default_credentials.json": b'{"type": "authorized_user", "refresh_token": "bench"}\n',
    ".docker/config.json": b'{"auths": {"registry.example.org": {"auth": "YmVuY2g6YmVuY2g="}}}\n',
    ".kube/config": b"apiVersion: v1\nkind: Config\nusers: [{name: bench, user: {token: bench}}]\n",
    ".netrc": b"machine git.example.org login bench password bench\n",
    ".git-credentials": b"https://bench:bench@git.example.org\n",
    ".gitconfig": b"[user]\n\tname = Bench\n",
    ".bashrc": b"export PATH=$HOME/bin:$PATH\n",
    ".profile": b"[ -f ~/.bashrc ] && . ~/.bashrc\n",
    "Documents/notes.txt": b"meeting at 10\n",
    "projects/app/data.csv": b"id,value\n1,2\n",
}


def shows_act(klass: str, observed: dict) -> bool:
    if divergences(RiskLevel.LOW, observed):  # type: ignore[arg-type]
        return True
    if klass == "persistence":
        return any(seen["access"] == "write" and (not inside_own_folders(seen["path"]) or is_sensitive(seen["path"])) for seen in observed["files"])
    if klass == "process_killing":
        counts = observed.get("counts", {})
        return len(observed["processes"]) > 20 or counts.get("processes", 0) > 20 or counts.get("clones", 0) > 20
    return False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", default="blind4")
    parser.add_argument("--timeout", type=float, default=8.0)
    parser.add_argument("--home", action="store_true", help="plant a developer's home (HOME) in /workspace")
    args = parser.parse_args()
    folder = ROOT / "tests" / "corpus" / args.set
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    evasive = sorted(name for name, label in labels.items() if label["group"] == "evasive")
    limits = ResourceLimits(cpus=0.5, memory_bytes=128 << 20, pids=64, timeout_s=args.timeout, output_bytes=1 << 16, tmpfs_bytes=16 << 20)
    shown: Counter[str] = Counter()
    ran: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as work_folder:
        work = Path(work_folder)
        app = bootstrapping.bootstrap(
            Settings.from_environment(
                environ={"MAI_SAFETY_POLICIES": str(policies_for(work, "runsc"))}, database_url=f"sqlite:///{work}/bench.sqlite"
            ),
            pool=False,
        )
        try:
            for name in evasive:
                klass = labels[name]["class"]
                code = (folder / name).read_text(encoding="utf-8")
                prepared = app.sandbox.prepare(
                    str(uuid.uuid4()), code, limits, limits, runtime="runsc", files=HOME if args.home else None
                )
                try:
                    outcome = app.sandbox.run(prepared, lambda usage: True)
                finally:
                    app.sandbox.discard(prepared)
                observed = outcome.observed
                if not observed or observed.get("source") != "gvisor-strace":
                    print(f"  {name}: no gVisor trace ({(observed or {}).get('source', 'none')}): is runsc-observed registered?")
                    continue
                ran[klass] += 1
                hit = shows_act(klass, observed)
                shown[klass] += hit
                print(f"  {'shown ' if hit else 'MISSED'} {name} ({klass}; exit {outcome.exit_code}, "
                      f"{len(observed['processes'])} processes, {len(observed['files'])} files, {len(observed['connections'])} connections)")
        finally:
            app.close()
    print(f"\nobserved record shows the act ({args.set}, gVisor, home {'planted' if args.home else 'empty'}):")
    for klass in sorted(ran):
        print(f"  {klass:<20} {shown[klass]}/{ran[klass]}")
    total_ran, total_shown = sum(ran.values()), sum(shown.values())
    print(f"  {'all':<20} {total_shown}/{total_ran} ({total_shown / max(total_ran, 1):.0%})")


if __name__ == "__main__":
    main()
