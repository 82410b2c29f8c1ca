"""Tokens and principals on the ledger: grant, revoke, list (as of any moment), and
``authenticate``, the one function through which a caller's token crosses into the service.

A token reads ``mst_<token id, 32 hex>_<secret>``: 256 random bits from ``secrets``, shown once.
The ledger keeps only its SHA-256 (a random 256-bit secret needs no slow hash), compared in
constant time. Every request reads the token's events again, so a revocation holds from the next
request on, in every process on the ledger.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import asdict, dataclass
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.utils import get_topic

from mai_safety.domain.access import (
    DEFAULT_PROVENANCES,
    Action,
    ApiToken,
    Principal,
    Role,
    check_acting_principal_may,
    check_principal_name,
    principal_context,
)
from mai_safety.domain.levels import Provenance
from mai_safety.domain.execution import actor_context

from .errors import NotAuthenticated, TokenNotFound

TOKEN_PREFIX = "mst"
_SECRET_BYTES = 32
_MAX_TOKEN_CHARS = 128
_INVALID = "the token is not valid (unknown, wrong or revoked): ask the operator for one (mai-safety tokens create)"


@dataclass(frozen=True)
class IssuedToken:
    """A token as granted: the only time the token itself is ever seen."""

    token_id: str
    principal: str
    roles: list[str]
    token: str
    provenances: list[str]


@dataclass(frozen=True)
class TokenReport:
    token_id: str
    principal: str
    roles: list[str]
    granted_at: str
    granted_by: str
    active: bool
    provenances: list[str]  # what its code may claim (external: any token may)
    revoked_at: str | None = None
    revoked_by: str | None = None
    revoked_because: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_id_of(presented: str) -> UUID:
    """The token id a presented token names, or NotAuthenticated if it is not shaped as ours."""
    parts = presented.split("_", 2)
    if len(presented) > _MAX_TOKEN_CHARS or len(parts) != 3 or parts[0] != TOKEN_PREFIX or len(parts[1]) != 32:
        raise NotAuthenticated(_INVALID)
    try:
        return UUID(hex=parts[1])
    except ValueError:
        raise NotAuthenticated(_INVALID) from None


class TokenCommands:
    """The token commands and queries, on the ledger of ``repository`` and ``recorder``, saved with
    the application's ``save``.

    These are the operator's: whoever holds the ledger grants and revokes (the CLI's
    ``mai-safety tokens``); the HTTP service only authenticates."""

    def __init__(self, repository: Any, recorder: Any, save: Callable[..., Any]) -> None:
        self.repository = repository
        self.recorder = recorder
        self.save = save

    def grant_token(
        self, principal: str, roles: list[Role], provenances: list[Provenance] | tuple[Provenance, ...] = DEFAULT_PROVENANCES
    ) -> IssuedToken:
        """A new token for ``principal`` with ``roles``, whose submissions may claim ``provenances``
        (and external, which earns the least)."""
        check_principal_name(principal)
        token_id = uuid4()
        token = f"{TOKEN_PREFIX}_{token_id.hex}_{secrets.token_urlsafe(_SECRET_BYTES)}"
        grant = ApiToken.grant(token_id, principal, roles, token_sha256(token), provenances)
        self.save(grant, seal=True)  # a change of who may act is signed at once
        return IssuedToken(
            token_id=str(token_id),
            principal=principal,
            roles=[role.value for role in grant.roles],
            token=token,
            provenances=[provenance.value for provenance in grant.provenances],
        )

    def revoke_tokens(self, name_or_id: str, reason: str = "") -> list[TokenReport]:
        """Revoke one token (by id) or every active token of a principal (by name)."""
        matching = [
            report
            for report in self.tokens()
            if report.active and (report.token_id == name_or_id or report.principal == name_or_id)
        ]
        if not matching:
            raise TokenNotFound(f"no active token with the id or principal {name_or_id!r}: see `mai-safety tokens list`")
        for report in matching:
            token = self.repository.get(UUID(report.token_id))
            token.revoke(reason or "revoked")
            self.save(token, seal=True)
        revoked = {report.token_id for report in matching}
        return [report for report in self.tokens() if report.token_id in revoked]

    def tokens(self, as_of: datetime | None = None) -> list[TokenReport]:
        """Every token granted (up to ``as_of``), and whether it was active then, from the ledger's events."""
        check_acting_principal_may(Action.READ_TOKENS)
        reports = []
        for token_id in self._token_ids():
            report = self._token_as_of(token_id, as_of)
            if report is not None:
                reports.append(report)
        return reports

    def authenticate(self, presented: str | None) -> Principal:
        """The trust boundary for callers: the principal a presented token names, or NotAuthenticated."""
        if not presented:
            raise NotAuthenticated("no token: send the header Authorization: Bearer TOKEN")
        token_id = token_id_of(presented)
        try:
            token = self.repository.get(token_id)
        except AggregateNotFoundError:
            raise NotAuthenticated(_INVALID) from None
        if not isinstance(token, ApiToken):
            raise NotAuthenticated(_INVALID)
        if not hmac.compare_digest(token_sha256(presented), token.token_sha256) or token.revoked:
            raise NotAuthenticated(_INVALID)
        return token.as_principal()

    def token_active(self, token_id: str) -> bool:
        """Whether that token is granted and not revoked, as the ledger says now (a long request,
        an event stream, asks again as it goes: a revocation holds from the next look)."""
        try:
            token = self.repository.get(UUID(token_id))
        except (AggregateNotFoundError, ValueError):
            return False
        return isinstance(token, ApiToken) and not token.revoked

    def _token_ids(self) -> list[UUID]:
        ids: dict[UUID, None] = {}
        start: int | None = None
        topics = [get_topic(ApiToken.TokenGranted)]
        while True:
            notifications = self.recorder.select_notifications(start=start, limit=1000, topics=topics, inclusive_of_start=False)
            for notification in notifications:
                originator = notification.originator_id
                ids[originator if isinstance(originator, UUID) else UUID(str(originator))] = None
            if len(notifications) < 1000:
                return list(ids)
            start = notifications[-1].id

    def _token_as_of(self, token_id: UUID, as_of: datetime | None) -> TokenReport | None:
        report: dict[str, Any] | None = None
        for event in self.repository.event_store.get(token_id):
            if as_of is not None and event.timestamp > as_of:
                break
            if isinstance(event, ApiToken.TokenGranted):
                report = {
                    "token_id": str(token_id),
                    "principal": event.principal,
                    "roles": list(event.roles),
                    "granted_at": event.timestamp.isoformat(),
                    "granted_by": event.actor,
                    "active": True,
                    "provenances": list(event.provenances),
                }
            elif isinstance(event, ApiToken.TokenRevoked) and report is not None:
                report.update(active=False, revoked_at=event.timestamp.isoformat(), revoked_by=event.actor, revoked_because=event.reason)
        return TokenReport(**report) if report is not None else None


@contextmanager
def acting_as(actor: str, principal: Principal | None = None) -> Iterator[None]:
    """Stamp every event recorded inside the block with ``actor``; in service mode, ``principal``
    (the token's) is the actor and what the application checks roles against."""
    token = actor_context.set(principal.name if principal is not None else actor)
    principal_token = principal_context.set(principal)
    try:
        yield
    finally:
        principal_context.reset(principal_token)
        actor_context.reset(token)
