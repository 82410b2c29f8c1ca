"""``mai-safety tokens``: the operator grants and revokes the service's API tokens. These commands
are for whoever holds the ledger (and the signing key), never for a caller of the service.

  create NAME --role ROLE... [--provenance mai,user]
                               grant a token to a principal; the token is printed once, never stored;
                               its code may claim the provenances granted (default mai; external always)
  list [--as-of TIME]          every token, active or revoked, as the ledger replays it
  revoke NAME|ID               revoke one token, or every active token of a principal
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timezone

from mai_safety.domain.access import DEFAULT_PROVENANCES, Role
from mai_safety.domain.errors import InvalidSubmission
from mai_safety.domain.levels import Provenance

from ..bootstrap import bootstrap
from ..settings import Settings


def add_token_commands(commands: argparse._SubParsersAction, parser_class: type[argparse.ArgumentParser]) -> None:  # type: ignore[type-arg]
    tokens = commands.add_parser("tokens", help="grant, list and revoke the service's API tokens (the operator's)")
    actions = tokens.add_subparsers(dest="tokens_command", required=True, parser_class=parser_class)
    create = actions.add_parser("create", help="grant a token to a principal; printed once")
    create.add_argument("name", help="the principal's name (letters, digits, . _ @ -)")
    create.add_argument("--role", action="append", required=True, choices=[role.value for role in Role], help="repeatable")
    create.add_argument(
        "--provenance",
        action="append",
        metavar="P[,P...]",
        help=(
            "what the token's code may claim to be, which decides the trust it earns: "
            f"{', '.join(item.value for item in Provenance)} (comma-separated or repeated; "
            f"default {','.join(item.value for item in DEFAULT_PROVENANCES)}; external is always allowed)"
        ),
    )
    create.add_argument("--json", action="store_true")
    listing = actions.add_parser("list", help="every token and whether it is active")
    listing.add_argument("--as-of", metavar="TIME", help="as the ledger stood then (ISO 8601, e.g. 2026-11-01T12:00:00Z)")
    listing.add_argument("--json", action="store_true")
    revoke = actions.add_parser("revoke", help="revoke a token (by id) or every active token of a principal (by name)")
    revoke.add_argument("name_or_id")
    revoke.add_argument("--reason", default="", help="why")
    revoke.add_argument("--json", action="store_true")


def run_tokens(args: argparse.Namespace, settings: Settings) -> int:
    as_of = _moment(args.as_of) if getattr(args, "as_of", None) else None
    provenances = _provenances(args.provenance) if getattr(args, "provenance", None) else DEFAULT_PROVENANCES
    app = bootstrap(settings, one_shot=True)
    try:
        if args.tokens_command == "create":
            issued = app.grant_token(args.name, [Role(role) for role in args.role], provenances)
            if args.json:
                print(json.dumps(issued.__dict__))
            else:
                print(issued.token)
                print(
                    f"token {issued.token_id} for {issued.principal} ({', '.join(issued.roles)}; may claim "
                    f"{', '.join(issued.provenances)}, external): shown once, keep it secret"
                )
            return 0
        if args.tokens_command == "list":
            reports = app.tokens(as_of=as_of)
            if args.json:
                print(json.dumps([report.to_dict() for report in reports]))
            for report in reports if not args.json else ():
                state = "active" if report.active else f"revoked {report.revoked_at} by {report.revoked_by}"
                print(
                    f"{report.token_id}  {report.principal:<20} {','.join(report.roles):<30} "
                    f"claims {','.join(report.provenances):<18} granted {report.granted_at} by {report.granted_by}  {state}"
                )
            return 0
        revoked = app.revoke_tokens(args.name_or_id, args.reason)
        if args.json:
            print(json.dumps([report.to_dict() for report in revoked]))
        for report in revoked if not args.json else ():
            print(f"revoked {report.token_id} of {report.principal}")
        return 0
    finally:
        app.close()


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidSubmission(f"--as-of {text!r} is not an ISO 8601 time: e.g. 2026-11-01T12:00:00Z") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _provenances(values: list[str]) -> tuple[Provenance, ...]:
    """--provenance user,mai (or repeated): each a known provenance, or one line saying which are."""
    names = [name.strip() for value in values for name in value.split(",")]
    known = {item.value: item for item in Provenance}
    for name in names:
        if name not in known:
            raise InvalidSubmission(f"--provenance {name!r} is not a provenance: one or more of {', '.join(known)}, comma-separated")
    return tuple(dict.fromkeys(known[name] for name in names))
