"""``mai-safety policy``: policies as recorded configuration.

  show [--json] [--history]  the version in force (from the ledger; 0 "unrecorded": the shipped
                             folder) and the SHA-256 of each of its files; --history: every apply
  validate DIR               read every file of DIR as the service does, and refuse what weakens a
                             hard rule; nothing is recorded (exit 0, or 6 with one line per problem)
  apply DIR                  validate, then record DIR as the next version, with a diff against the
                             version in force; a running service judges new executions by it
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from mai_safety.application.policies import changed_files

from ..bootstrap import bootstrap
from ..policies.folder import check_folder
from ..policies.reader import reading_folder
from ..settings import Settings
from .policy_parsers import PolicyHelps, add_policy_parsers

LOCAL_HELPS = PolicyHelps(
    policy="show, validate and apply the policies (recorded on the ledger)",
    validate="check a policy folder; records nothing",
    apply="validate a policy folder and record it as the policy in force",
    history="every applied version, oldest first, with its diff",
)


def add_policy_commands(commands: argparse._SubParsersAction, parser_class: type[argparse.ArgumentParser]) -> None:  # type: ignore[type-arg]
    add_policy_parsers(commands, parser_class, LOCAL_HELPS)


def run_policy(args: argparse.Namespace, settings: Settings) -> int:
    if args.policy_command == "validate":
        with reading_folder(Path(args.directory)) as folder:  # each file read once
            check_folder(folder.directory)
            files = folder.files()
        print(json.dumps({"valid": True, "files": len(files)}) if args.json else f"{args.directory}: valid ({len(files)} files)")
        return 0
    files: dict[str, str] = {}
    if args.policy_command == "apply":
        with reading_folder(Path(args.directory)) as folder:  # each file read once
            files = folder.files()
            check_folder(folder.directory)  # named by their paths here, before the ledger is opened
    app = bootstrap(settings, one_shot=True)
    try:
        if args.policy_command == "apply":
            applied = app.apply_policy(files)
            if args.json:
                print(json.dumps(applied.to_dict()))
            else:
                changed = ", ".join(changed_files(applied.diff)) or "none"
                print(f"applied policy version {applied.version} ({len(applied.hashes)} files; changed: {changed}) by {applied.applied_by}")
            return 0
        if args.history:
            history = app.policy_history()
            if args.json:
                print(json.dumps([version.to_dict() for version in history]))
            for version in history if not args.json else ():
                print(f"version {version.version}  applied {version.applied_at} by {version.applied_by}")
                print(version.diff, end="")
            return 0
        in_force = app.policy_in_force()
        if args.json:
            print(json.dumps(in_force.to_dict()))
        else:
            when = f", applied {in_force.applied_at} by {in_force.applied_by}" if in_force.recorded else ": the shipped folder"
            print(f"policy {in_force.to_dict()['label']}{when}")
            for name, digest in in_force.hashes.items():
                print(f"  {digest}  {name}")
        return 0
    finally:
        app.close()
