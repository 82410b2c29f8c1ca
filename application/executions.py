"""The application Mai calls, ``MaiSafety``: eventsourcing's ``Application`` on the ledger (its
recorder, repository and ``save``, the library's own: the ledger's recorder seals what ends) and a facade over the objects that do
the work, each with one job (docs/decisions/0038):

    commands  ExecutionCommands   assess, run, approve, deny, cancel      application.commands
    queries   ExecutionQueries    report, history, watch, verify, export   application.queries
    files     FileQueries         an execution's files and their bytes     application.files
    tokens    TokenCommands       grant, revoke, authenticate              application.access
    policies  PolicyCommands      the policy in force, apply, history      application.policies
    upkeep    Upkeep              sweep, recovery, leases, the stop        application.upkeep
    audit     LedgerAudit         the ledger's verification and seals      mai_safety.ledger (its door)

The facade holds them and hands each call on; it decides nothing. The composition root
(infrastructure/bootstrap.py) picks the adapters it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

from mai_safety.domain.levels import Provenance
from mai_safety.domain.output import DEFAULT_INLINE_BYTES
from mai_safety.ledger import (
    BlobStore,
    Clock,
    LedgerAudit,
    LedgerPolicy,
    LedgerWiring,
    ProcessWorkLock,
    StartTimer,
    WorkLock,
    audit_of,
    open_ledger,
    start_daemon_timer,
    utc_now,
)

from .abandoned import InFlight, Leases, Liveness
from .access import TokenCommands
from .commands import ExecutionCommands, RunSettings, ServiceMode
from .divergence import diverged_executions
from .files import FileQueries
from .live import LiveOutput
from .open_sets import OpenExecutions
from .policies import PolicyCommands, PolicyLoader
from .ports import Assessor, PackageIndex, Sandbox
from .queries import ExecutionQueries
from .reports import AssessmentReport, ExecutionReport
from .run_command import RunCommand
from .sizing import ExecutionPolicy
from .store import ExecutionStore
from .upkeep import Upkeep


class MaiSafety(Application[UUID]):
    """Assess, gate, run and record AI-written code, on one ledger."""

    name = "MaiSafety"
    #: eventsourcing's aggregate cache, fast-forwarded from the ledger at each read: a session read
    #: at each cell replays only what was appended since (its hundreds of events otherwise, 14 ms at
    #: 200 cells), and every read still sees what another process appended. Commands get a copy.
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "64"}

    def __init__(
        self,
        *,
        assessor: Assessor,
        sandbox: Sandbox,
        policy: ExecutionPolicy,
        env: dict[str, str] | None = None,
        ledger: LedgerPolicy | None = None,
        package_index: PackageIndex | None = None,
        ledger_stall_s: float = 10.0,
        blob_store: Callable[[Any], BlobStore | None] | None = None,
        work_lock: Callable[[Any], WorkLock] | None = None,
        clock: Clock = utc_now,
        sealing_timer: StartTimer = start_daemon_timer,
        policy_loader: PolicyLoader | None = None,
        shipped_policy: Callable[[], dict[str, str]] | None = None,
        mode: ServiceMode | None = None,
        ledger_factory: InfrastructureFactory[Any] | None = None,
    ) -> None:
        """``blob_store`` picks the store for output kept out of events from the ledger's factory
        this application was built with (``mai_safety.ledger.blob_store_of``: the ledger's own
        database, docs/decisions/0014); without one, output stays inline in the ending event.
        ``work_lock``: likewise, the lock that lets one process at a time recover or sweep a ledger. ``clock`` tells the time of answers,
        deadlines and seals; ``sealing_timer`` starts the timers of deferred seals. ``mode``: how
        the process serves (application.commands.ServiceMode; the CLI's by default).
        ``ledger_factory``: the ledger's factory, when the composition root built it
        (mai_safety.ledger.open_ledger); otherwise ``construct_factory`` opens one."""
        self._ledger_wiring = (ledger, clock, sealing_timer)
        self._ledger_factory = ledger_factory
        super().__init__(env=env)
        self._sandbox = sandbox
        self.clock = clock
        self.blobs = blob_store(self.factory) if blob_store is not None else None
        self.work_lock = work_lock(self.factory) if work_lock is not None else ProcessWorkLock()
        self.audit: LedgerAudit = audit_of(self.factory, self.mapper, blobs=self.blobs, clock=clock)
        # Every execution ends (application.abandoned): what this process moves on now, and who
        # is gone. The index keeps, beside each execution it opens, who opened it: this process.
        self.in_flight = InFlight()
        if isinstance(self.recorder, OpenExecutions):
            self.recorder.holder = sandbox.supervisor_id
        leases = self.recorder if isinstance(self.recorder, Leases) else None
        self.liveness = Liveness(lambda: sandbox.supervisor_id, sandbox.is_orphaned, leases, self.in_flight)
        self.mode = mode or ServiceMode()

        def save(*objs: Any, **kwargs: Any) -> Any:  # this application's, as it is when called
            return self.save(*objs, **kwargs)

        store = ExecutionStore(self.repository, save)
        self.token_commands = TokenCommands(self.repository, self.recorder, save)
        self.policies = PolicyCommands(self.repository, self.recorder, save, policy, assessor, policy_loader, shipped_policy or dict)
        self.queries = ExecutionQueries(
            store, self.recorder, self.audit, self.blobs, sandbox, self.token_commands.token_active, lambda: self.mode.live
        )
        self.file_queries = FileQueries(store, self.blobs)
        self.upkeep = Upkeep(store, self.recorder, sandbox, self.audit, self.work_lock, self.liveness, self.in_flight, clock)
        inline = ledger.inline_output_bytes if ledger is not None else DEFAULT_INLINE_BYTES
        self.run_settings = RunSettings(self.blobs, inline, ledger_stall_s, package_index)
        self.commands = ExecutionCommands(
            store, self.policies, sandbox, self.upkeep, self.queries.report, self.run_settings, self.mode, self.in_flight, clock
        )
        self._get = store.get
        self._hand_on()

    def _hand_on(self) -> None:
        """Each call of the facade is its object's, bound once (no logic here)."""
        commands, queries, tokens, policies, upkeep = self.commands, self.queries, self.token_commands, self.policies, self.upkeep
        self.approve, self.deny, self.cancel, self.submission_id = commands.approve, commands.deny, commands.cancel, commands.submission_id
        self.report, self.history, self.watch, self.verify = queries.report, queries.history, queries.watch, queries.verify
        self.export, self.status = queries.export, queries.status
        self.awaiting_ids, self.running_ids = upkeep.awaiting_ids, upkeep.running_ids
        self.files, self.file, self.run_files = self.file_queries.files, self.file_queries.file, self.file_queries.run_files
        self.grant_token, self.revoke_tokens, self.tokens = tokens.grant_token, tokens.revoke_tokens, tokens.tokens
        self.authenticate, self.token_active = tokens.authenticate, tokens.token_active
        self.policy_in_force, self.apply_policy, self.policy_history = policies.policy_in_force, policies.apply_policy, policies.policy_history
        self.policy_changes, self.recorded_policy_version = policies.policy_changes, policies.recorded_policy_version
        self.follow_policy, self.validate_policy = policies.follow_policy, policies.validate_policy
        self.expire_overdue, self.sweep, self.recover, self.end_unfinished = upkeep.expire_overdue, upkeep.sweep, upkeep.recover, upkeep.end_unfinished
        self.renew_lease, self.release_lease, self.remove_leftovers = upkeep.renew_lease, upkeep.release_lease, upkeep.remove_leftovers

    def construct_factory(self, env: Environment) -> InfrastructureFactory[Any]:
        """The library's hook: the ledger's factory, built with its policy, clock and timer (it
        builds the recorder with its sealer; an ending is sealed as the policy says, from the
        events' topics, so ``save`` is the library's own)."""
        if self._ledger_factory is not None:
            return self._ledger_factory
        policy, clock, timer = self._ledger_wiring
        return open_ledger(env, LedgerWiring(policy, clock, timer))

    def assess(self, code: bytes, *, provenance: Provenance = Provenance.MAI, source: str = "the code") -> AssessmentReport:
        """The verdict alone: nothing is recorded and nothing runs."""
        return self.commands.assess(RunCommand(code, provenance=provenance, source=source))

    def run(self, code: bytes, **options: Any) -> ExecutionReport:
        """Assess, record, and run if the gate allows; ``options``: application.run_command.RunCommand's."""
        return self.commands.run(RunCommand(code, **options))

    def diverged(self, limit: int = 1000) -> list[dict[str, Any]]:
        """The executions recorded as diverged, newest first (application.divergence)."""
        return diverged_executions(self.recorder, self.mapper, limit)

    def close(self) -> None:
        try:
            self.audit.close()  # seals the endings still owed a checkpoint
        finally:
            self.policies.assessor.close()
            self.sandbox.close()
            super().close()

    # --- what the composition root, the service and tests set: each object's own -------------

    @property
    def sandbox(self) -> Sandbox:
        return self._sandbox

    @sandbox.setter
    def sandbox(self, sandbox: Sandbox) -> None:
        self._sandbox = self.commands.sandbox = self.queries.sandbox = self.upkeep.sandbox = sandbox

    policy = property(lambda self: self.policies.policy, lambda self, value: setattr(self.policies, "policy", value))
    assessor = property(lambda self: self.policies.assessor, lambda self, value: setattr(self.policies, "assessor", value))
    policy_loader = property(lambda self: self.policies.policy_loader)
    package_index = property(
        lambda self: self.run_settings.package_index, lambda self, value: setattr(self.run_settings, "package_index", value)
    )
    roles_decide = property(lambda self: self.mode.roles_decide, lambda self, value: setattr(self.mode, "roles_decide", value))
    live = property(lambda self: self.mode.live, lambda self, value: setattr(self.mode, "live", value))
    outcome_retry_s = property(
        lambda self: self.mode.outcome_retry_s, lambda self, value: setattr(self.mode, "outcome_retry_s", value)
    )
    keep_outcome_s = property(lambda self: self.mode.keep_outcome_s, lambda self, value: setattr(self.mode, "keep_outcome_s", value))


__all__ = ["LiveOutput", "MaiSafety"]
