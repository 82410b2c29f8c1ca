"""``mai-safety policy show|validate|apply`` as a client of the service (``MAI_SAFETY_URL`` set):
the policy in force (``GET /v1/policies/current``), a folder checked as an apply would check it
(``POST /v1/policies/validate``) and applied as the next recorded version (``POST /v1/policies``),
with an admin's token. The same texts and ``--json`` as the local commands; ``show --history``
reads the ledger's every version and stays local. Nothing here imports the application."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mai_safety.client import PlainClient

from .exit_codes import EXIT_OK
from .policy_parsers import PolicyHelps, add_policy_parsers
from .refused import Refused
from .terminal import visible_line

REMOTE_HELPS = PolicyHelps(
    policy="the service's policy: show it, validate or apply a folder (admin)",
    validate="check a policy folder on the service; records nothing (admin)",
    apply="validate a policy folder and record it as the service's policy in force (admin)",
    history=argparse.SUPPRESS,
)


def add_commands(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    add_policy_parsers(commands, parser_class, REMOTE_HELPS)


def run(client: PlainClient, args: argparse.Namespace) -> int:
    if args.policy_command == "validate":
        checked = client.validate_policy(_folder(args.directory))
        print(json.dumps(checked) if args.json else f"{visible_line(args.directory)}: valid ({checked['files']} files)")
        return EXIT_OK
    if args.policy_command == "apply":
        applied = client.apply_policy(_folder(args.directory))
        if args.json:
            print(json.dumps(applied))
        else:
            changed = ", ".join(_changed_files(applied.get("diff") or "")) or "none"
            print(visible_line(
                f"applied policy version {applied['version']} ({len(applied.get('hashes') or {})} files; changed: {changed}) by {applied.get('applied_by')}"
            ))
        return EXIT_OK
    if args.history:
        raise Refused("policy show --history reads every version from the ledger: run it on the service's host without MAI_SAFETY_URL")
    in_force = client.policy()
    if args.json:
        print(json.dumps(in_force))
        return EXIT_OK
    when = f", applied {in_force.get('applied_at')} by {in_force.get('applied_by')}" if in_force.get("recorded") else ": the shipped folder"
    print(visible_line(f"policy {in_force.get('label')}{when}"))
    for name, digest in (in_force.get("hashes") or {}).items():
        print(visible_line(f"  {digest}  {name}"))
    return EXIT_OK


def _folder(directory: str) -> dict[str, str]:
    from mai_safety.client._files import policy_files

    try:
        return policy_files(directory)
    except (ValueError, OSError) as exc:
        raise Refused(f"{exc}") from None


def _changed_files(diff: str) -> list[str]:
    """The files a policy's unified diff names, each once, in order."""
    names: list[str] = []
    for line in diff.splitlines():
        if line.startswith(("--- a/", "+++ b/")) and line[6:] not in names:
            names.append(line[6:])
    return names
