"""The arguments of ``mai-safety policy show|validate|apply``, defined once for both doors: the local
commands (cli/policy.py) and the client of a service (cli/remote_policy.py) take the same arguments
and must not drift apart; only what each says of itself differs (``PolicyHelps``). Standard library
only: the client's door imports nothing of the application."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PolicyHelps:
    """What one door says of the command and its actions."""

    policy: str
    validate: str
    apply: str
    history: str  # argparse.SUPPRESS where the door reads no history


def add_policy_parsers(commands: Any, parser_class: type[argparse.ArgumentParser], helps: PolicyHelps) -> None:
    policy = commands.add_parser("policy", help=helps.policy)
    actions = policy.add_subparsers(dest="policy_command", required=True, parser_class=parser_class)
    show = actions.add_parser("show", help="the policy version in force and its files' hashes")
    show.add_argument("--history", action="store_true", help=helps.history)
    show.add_argument("--json", action="store_true")
    for name, text in (("validate", helps.validate), ("apply", helps.apply)):
        action = actions.add_parser(name, help=text)
        action.add_argument("directory", metavar="DIR")
        action.add_argument("--json", action="store_true")
