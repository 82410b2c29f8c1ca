"""Who may do what in service mode: roles, principals, the API tokens granted to them, and the
gate's authority when roles decide (docs/decisions/0016).

A token is an ``ApiToken`` aggregate on the same ledger as the executions: ``TokenGranted`` (the
principal's name, its roles and the SHA-256 of the token; never the token) and ``TokenRevoked``.
Replaying those events says who held which roles at any moment.

Separation of duties, as rules:
* nobody confirms or overrides an execution they submitted;
* confirming HIGH code needs ``approver``, overriding BLOCKED code ``security-officer``; so a
  principal that is only a ``submitter`` can never move an execution past the gate;
* a ``submitter`` reads and cancels only its own executions; another's does not exist for it.

Provenance is a claim, and what it earns (the trust level, so the limits and the runtime) must be
granted: each token is granted the provenances it may claim (``TokenGranted`` version 2). By
default, ``mai`` (the assistant's code: a submitter token is for it); ``external`` earns the least
(the hard rules keep it untrusted), so any token may claim it; ``user`` only where the operator
granted it. A claim the token was not granted is refused before anything is recorded.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from .errors import InvalidTransition
from .execution import actor_context
from .gate import NotPermitted
from .levels import Provenance


class Role(str, Enum):
    SUBMITTER = "submitter"  # submit and assess code; read and cancel its own executions
    APPROVER = "approver"  # confirm HIGH code (deny it); read every execution to decide
    SECURITY_OFFICER = "security-officer"  # override BLOCKED code with an explanation (deny it)
    AUDITOR = "auditor"  # read every execution, verify and export the ledger
    ADMIN = "admin"  # tokens: lists them over HTTP; grants and revokes through the operator's CLI


class Action(str, Enum):
    ASSESS = "assess"
    SUBMIT = "submit"
    READ_ANY = "read any execution"
    CANCEL_ANY = "cancel any execution"
    CONFIRM = "confirm HIGH code"
    OVERRIDE = "override BLOCKED code"
    VERIFY = "verify the ledger"
    EXPORT = "export the ledger"
    READ_TOKENS = "list the tokens granted and revoked"
    APPLY_POLICY = "apply a policy"


ROLE_ACTIONS: dict[Role, frozenset[Action]] = {
    Role.SUBMITTER: frozenset({Action.ASSESS, Action.SUBMIT}),
    Role.APPROVER: frozenset({Action.CONFIRM, Action.READ_ANY, Action.CANCEL_ANY}),
    Role.SECURITY_OFFICER: frozenset({Action.OVERRIDE, Action.READ_ANY, Action.CANCEL_ANY}),
    Role.AUDITOR: frozenset({Action.READ_ANY, Action.VERIFY, Action.EXPORT, Action.READ_TOKENS}),
    Role.ADMIN: frozenset({Action.READ_TOKENS, Action.APPLY_POLICY}),  # granting and revoking: the operator's CLI
}


#: What a token may claim unless the operator grants more: the assistant's own code.
DEFAULT_PROVENANCES: tuple[Provenance, ...] = (Provenance.MAI,)
#: What any token may claim: it earns the least trust (external code is always untrusted).
ALWAYS_CLAIMABLE: frozenset[Provenance] = frozenset({Provenance.EXTERNAL})


def claimable(granted: "tuple[Provenance, ...] | list[Provenance] | frozenset[Provenance]") -> frozenset[Provenance]:
    return frozenset(granted) | ALWAYS_CLAIMABLE


@dataclass(frozen=True)
class Principal:
    """Who a request comes from, as its token says: never as the request says."""

    name: str
    roles: frozenset[Role]
    token_id: str = ""
    provenances: frozenset[Provenance] = claimable(DEFAULT_PROVENANCES)  # what its code may claim to be

    def may(self, action: Action) -> bool:
        return any(action in ROLE_ACTIONS[role] for role in self.roles)

    def check_may(self, action: Action) -> None:
        if not self.may(action):
            roles = ", ".join(sorted(role.value for role in self.roles)) or "none"
            needed = ", ".join(sorted(role.value for role, actions in ROLE_ACTIONS.items() if action in actions))
            raise NotPermitted(f"{self.name!r} (roles: {roles}) may not {action.value}: that needs the role {needed}")

    def check_may_claim(self, provenance: Provenance) -> None:
        """Provenance is a claim: refuse one this principal's token was not granted."""
        if provenance not in self.provenances:
            granted = ", ".join(sorted(item.value for item in self.provenances))
            raise NotPermitted(
                f"{self.name!r} may not submit code with the provenance {provenance.value!r}: its token is granted "
                f"{granted}; the operator grants more with `mai-safety tokens create NAME --provenance ...`"
            )

    def may_see(self, submitted_by: str | None) -> bool:
        """Whether this principal may know that an execution submitted by ``submitted_by`` exists."""
        return self.may(Action.READ_ANY) or (Role.SUBMITTER in self.roles and submitted_by == self.name)

    def check_may_cancel(self, submitted_by: str | None) -> None:
        if not (self.may(Action.CANCEL_ANY) or (Role.SUBMITTER in self.roles and submitted_by == self.name)):
            raise NotPermitted(f"{self.name!r} may not cancel this execution: only its submitter, an approver or a security officer may")


#: The authenticated principal, set at the service's edge beside the actor; None in local mode.
principal_context: ContextVar[Principal | None] = ContextVar("mai_safety_principal", default=None)


def check_acting_principal_may(action: Action) -> None:
    """In service mode the acting principal must hold a role for ``action`` (NotPermitted);
    locally, with no principal, the person at the machine may."""
    principal = principal_context.get()
    if principal is not None:
        principal.check_may(action)


def check_acting_principal_may_claim(provenance: Provenance) -> None:
    """In service mode the acting principal's token must be granted ``provenance`` (NotPermitted);
    locally, the machine's owner says who wrote the code, as before."""
    principal = principal_context.get()
    if principal is not None:
        principal.check_may_claim(provenance)


@dataclass(frozen=True)
class RolesDecide:
    """The gate's authority in service mode, in place of ``policies/gate.yaml``'s names: the role the
    answer needs, and never the execution's own submitter. Same shape as ``GateRules``."""

    principal: Principal
    submitted_by: str | None

    def check_may_answer(self, kind: str, actor: str) -> None:
        self.principal.check_may(Action.OVERRIDE if kind == "override" else Action.CONFIRM)
        if self.submitted_by is not None and self.submitted_by == self.principal.name:
            what = "override" if kind == "override" else "confirm"
            raise NotPermitted(
                f"{self.principal.name!r} submitted this execution and so may not {what} it "
                "(separation of duties): another principal must answer"
            )


@dataclass(frozen=True)
class NobodyAnswers:
    """Service mode without an authenticated principal: the gate stays shut (fail closed)."""

    def check_may_answer(self, kind: str, actor: str) -> None:
        raise NotPermitted("no authenticated principal: in service mode only a token's roles can answer the gate")


PRINCIPAL_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@-")


#: Actors the service itself stamps (its own work; the default): no principal may take them.
RESERVED_NAMES = frozenset({"mai-safety", "mai-safety-service"})


def check_principal_name(name: str) -> str:
    if not (1 <= len(name) <= 64) or not set(name) <= PRINCIPAL_NAME_CHARACTERS or name[0] in ".-@_":
        raise InvalidTransition(
            f"principal name {name!r} is not allowed: 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit"
        )
    if name in RESERVED_NAMES:
        raise InvalidTransition(f"principal name {name!r} is the service's own actor: choose another")
    return name


class ApiToken(Aggregate):
    """One token granted to one principal. Its id is part of the token, so a request's token is
    found without a scan; only the token's SHA-256 is kept."""

    class Event(Aggregate.Event):
        actor: str = field(default_factory=actor_context.get, init=False)

    class TokenGranted(Aggregate.Created, Event):
        """A token for ``principal`` with ``roles`` (Role values), known by its SHA-256 alone.
        Its topic, ``mai_safety.domain.access:ApiToken.TokenGranted``, is hashed into the chains."""

        class_version = 2
        principal: str
        roles: list[str]
        token_sha256: str
        provenances: list[str]  # version 2: the provenances its code may claim (Provenance values)

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            # Granted before provenance was granted: the default, never more (issue 23).
            state["provenances"] = [provenance.value for provenance in DEFAULT_PROVENANCES]

    @event(TokenGranted)
    def __init__(self, *, principal: str, roles: list[str], token_sha256: str, provenances: list[str]) -> None:
        self.principal = principal
        self.roles = [Role(role) for role in roles]
        self.token_sha256 = token_sha256
        self.provenances = [Provenance(provenance) for provenance in provenances]
        self.revoked = False

    @classmethod
    def grant(
        cls,
        token_id: UUID,
        principal: str,
        roles: list[Role],
        token_sha256: str,
        provenances: list[Provenance] | tuple[Provenance, ...] = DEFAULT_PROVENANCES,
    ) -> "ApiToken":
        check_principal_name(principal)
        if not roles:
            raise InvalidTransition("a token needs at least one role")
        unique = list(dict.fromkeys(role.value for role in roles))
        claims = list(dict.fromkeys(provenance.value for provenance in provenances))
        if not claims:
            raise InvalidTransition("a token needs at least one provenance its code may claim")
        return cls._create(
            cls.TokenGranted, id=token_id, principal=principal, roles=unique, token_sha256=token_sha256, provenances=claims
        )

    def revoke(self, reason: str) -> None:
        if self.revoked:
            raise InvalidTransition(f"token {self.id} of {self.principal!r} is already revoked")
        self._revoked(reason=reason)

    class TokenRevoked(Event):
        """The token no longer authenticates anyone, from this event on."""

        class_version = 1
        reason: str

    @event(TokenRevoked)
    def _revoked(self, reason: str) -> None:
        self.revoked = True

    def as_principal(self) -> Principal:
        return Principal(
            name=self.principal, roles=frozenset(self.roles), token_id=str(self.id), provenances=claimable(self.provenances)
        )
