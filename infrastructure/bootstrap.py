"""The composition root: the one place that picks concrete adapters and wires the application."""

from __future__ import annotations

import getpass
import os
import socket
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eventsourcing.utils import Environment

from mai_safety.application.errors import ConfigurationError, LedgerUnavailable
from mai_safety.application.ports import Assessor, Sandbox
from mai_safety.application.commands import ServiceMode
from mai_safety.application.executions import MaiSafety
from mai_safety.application.read_models import ReadModels
from mai_safety.ledger import (
    LedgerConfig,
    LedgerWiring,
    StartTimer,
    blob_store_of,
    ledger_parts,
    load_ledger_policy,
    open_ledger,
    start_daemon_timer,
    work_lock_of,
)
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.application.reports import VerificationReport

from mai_safety.domain.network import KnownThreats

from .alerts.alerts import verify_failed_alert
from .alerts.follower import AlertFollower, AlertsInForce
from .alerts.policy import AlertsPolicy, load_alerts_policy
from .alerts.sender import WebhookSender
from .analysis import AnalysisPolicy, build_analyzers, load_analysis_policy
from .analysis.sensitive_paths import SensitivePaths
from .analysis.on_first_use import AssessorOnFirstUse
from .sandbox.on_first_use import SandboxOnFirstUse
from .sandbox.package_index import PipPackageIndex
from mai_safety.application.sessions import Sessions
from mai_safety.infrastructure.views.store import views_beside
from .policies import LimitsPolicy, Policies, load_policies
from .policies.folder import check_folder
from .policies.reader import PolicyFolder, reading_folder
from .policies.recorded import FolderPolicyLoader
from .settings import Settings, StoreChoice, choose_store, keep_private
from .signing import KeyFile

if TYPE_CHECKING:  # the Docker sandbox's modules are imported where one is built (SandboxOnFirstUse)
    from .sandbox import DockerSandbox, PoolSpec


def default_actor(settings: Settings) -> str:
    if settings.actor:
        return settings.actor
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = f"uid{os.getuid()}"
    return f"{user}@{socket.gethostname()}"


def build_assessor(
    policies: Policies, *, warm_semgrep: bool | None = None, analysis: AnalysisPolicy | None = None
) -> Assessor:
    if warm_semgrep is False:  # a one-shot command: the analyzers are imported only if it assesses
        return AssessorOnFirstUse(lambda: build_analyzers(policies.directory, policies.bandit, warm_semgrep=False, policy=analysis))
    return build_analyzers(policies.directory, policies.bandit, warm_semgrep=warm_semgrep, policy=analysis)


def bootstrap(
    settings: Settings | None = None,
    *,
    assessor: Assessor | None = None,
    sandbox: Sandbox | None = None,
    warm_semgrep: bool | None = None,
    pool: bool | dict[str, int] | None = None,
    sealing_timer: StartTimer = start_daemon_timer,
    remove_in_background: bool = False,
    mode: ServiceMode | None = None,
    one_shot: bool = False,
) -> MaiSafety:
    """Wire the application from settings; tests may pass their own assessor or sandbox.

    ``warm_semgrep=False`` suits a one-shot process (the CLI): a waiting engine pays off only
    when the same process assesses again. Likewise ``pool=False``: no warm pool of containers
    whatever ``pool:`` in policies/limits.yaml says; a dict (profile name: size) replaces the
    policy's sizes (docs/decisions/0015). ``sealing_timer``: how the deferred seals' timers start
    (a test's fire only when it says so). ``remove_in_background``: a run's container is removed
    after its answer, by a thread of the sandbox (the service; infrastructure/sandbox/removal.py).
    ``mode``: how the process serves (the service's: roles answer the gate, output streams live).
    ``one_shot``: a process that runs one command and exits (the CLI): no warm Semgrep, no pool,
    and the assessor and the Docker sandbox are built when first used, so that a command that only
    reads the ledger imports neither the analyzers nor Docker's client (issue #29).

    The ledger's factory is built first (mai_safety.ledger.open_ledger): it builds the recorder
    with its sealer, the blob store and the work lock, and names the ledger to the sandbox; the
    application is then built whole, and nothing is changed on it afterwards."""
    settings = settings or Settings.from_environment()
    if one_shot:
        warm_semgrep, pool = False, False
    keep_private(settings)  # the ledger and what lies beside it are the owner's alone
    shipped = PolicyFolder(settings.policies_dir)  # version 0: read once, its files kept for the ledger's records
    with shipped.reading():
        return _bootstrap(settings, shipped, assessor, sandbox, warm_semgrep, pool, sealing_timer, remove_in_background, mode, one_shot)


def _bootstrap(
    settings: Settings,
    shipped: PolicyFolder,
    assessor: Assessor | None,
    sandbox: Sandbox | None,
    warm_semgrep: bool | None,
    pool: bool | dict[str, int] | None,
    sealing_timer: StartTimer,
    remove_in_background: bool,
    mode: ServiceMode | None,
    one_shot: bool,
) -> MaiSafety:
    if settings.policies_dir.is_dir():  # (a missing folder: load_policies says what to do)
        shipped.files()  # every file read once, bounded; the loaders parse what was read
    policies = load_policies(settings.policies_dir)
    store = choose_store(settings)
    _check_store(store)
    analysis = load_analysis_policy(policies.directory)
    execution_policy = execution_policy_from(policies, analysis, settings)
    observed_paths = PathsInForce(analysis.paths)

    def build_version(folder: Path, version: int) -> tuple[ExecutionPolicy, Assessor]:
        """A recorded policy version, for new executions (application.policies follows the ledger)."""
        return load_version(folder, version, settings, assessor, warm_semgrep, observed_paths)

    ledger = ledger_config(settings).policy
    factory = open_ledger(Environment(MaiSafety.name, {**os.environ, **store.env}), LedgerWiring(ledger, start_timer=sealing_timer))
    if sandbox is None:

        def build() -> DockerSandbox:
            return _docker_sandbox(settings, policies, pool, remove_in_background, observed_paths)

        sandbox = SandboxOnFirstUse(build) if one_shot else build()
    parts = ledger_parts(factory)
    use_ledger = getattr(sandbox, "use_ledger", None)  # the Docker sandbox's, built or not
    if use_ledger is not None and parts is not None:  # its containers name their ledger; its sweeps keep to it
        use_ledger(parts.identity)
    app = MaiSafety(
        assessor=assessor or build_assessor(policies, warm_semgrep=warm_semgrep, analysis=analysis),
        sandbox=sandbox,
        policy=execution_policy,
        env=store.env,
        package_index=PipPackageIndex(),
        ledger=ledger,
        ledger_factory=factory,
        # Long output goes to a table of the ledger's own database (docs/decisions/0014).
        blob_store=blob_store_of,
        # Recovery and the sweep: one process at a time per ledger (several servers, one ledger).
        work_lock=work_lock_of,
        sealing_timer=sealing_timer,
        policy_loader=FolderPolicyLoader(settings.data_dir, build_version),
        shipped_policy=shipped.files,
        mode=mode,
    )
    app.follow_policy()  # the version the ledger holds, if one was applied (a command of its own)
    return app


class PathsInForce:
    """The sensitive-path model the observed record marks what a run opened by (policies'
    analysis.yaml ``sensitive_paths``): the one of the policy version in force, handed on as each
    applied version is loaded (``load_version``), not the one the process started with. The
    sandbox's home is its working folder: there, ~/.bashrc is /workspace/.bashrc."""

    def __init__(self, paths: SensitivePaths | None) -> None:
        from .sandbox.workspace import WORKSPACE

        self.paths = paths
        self.home = WORKSPACE

    def __call__(self, path: str, access: str) -> bool:
        paths = self.paths
        return paths is not None and paths.observed(path, access, home=self.home)


def _docker_sandbox(
    settings: Settings, policies: Policies, pool: bool | dict[str, int] | None, remove_in_background: bool,
    judge: PathsInForce | None = None,
) -> DockerSandbox:
    limits = policies.limits
    from .sandbox import DockerSandbox

    return DockerSandbox(
        settings.image,
        limits.host,
        proxy_image=policies.network.proxy_image,
        upstream_network=policies.network.upstream_network,
        sample_interval_s=limits.sampling.interval_s,
        lock_path=settings.data_dir / "admission.lock",
        work_dir=settings.work_dir,
        in_container=settings.in_container,
        pool=_pool_specs(limits, pool),
        pool_max_idle_s=limits.pool.max_idle_s,
        remove_in_background=remove_in_background,
        file_bounds=limits.files,
        images=limits.images.tags(),
        observed_paths=judge,
    )


def load_version(
    folder: Path, version: int, settings: Settings, assessor: Assessor | None = None, warm_semgrep: bool | None = None,
    observed_paths: PathsInForce | None = None,
) -> tuple[ExecutionPolicy, Assessor]:
    """A recorded policy version's folder, checked, into what judges and sizes new executions:
    each of its files read and parsed once (infrastructure/policies/reader.py). ``observed_paths``
    takes the version's sensitive-path model (it is loaded to be put in force)."""
    with reading_folder(folder):
        loaded, loaded_analysis = check_folder(folder), load_analysis_policy(folder)
        if observed_paths is not None:
            observed_paths.paths = loaded_analysis.paths
        return (
            execution_policy_from(loaded, loaded_analysis, settings, version),
            assessor or build_assessor(loaded, warm_semgrep=warm_semgrep, analysis=loaded_analysis),
        )


def sessions_of(app: MaiSafety) -> Sessions | None:
    """Sessions (issue #27) on the application's ledger, in containers of its Docker sandbox's
    engine; None under another sandbox."""
    from .analysis.session_context import SlicedContext
    from .sandbox import DockerSandbox
    from .sandbox.sessions import DockerSessions

    if not isinstance(app.sandbox, DockerSandbox):
        return None

    def whole(assessor: Assessor) -> Assessor:  # the AST analysis resolves names across cells (decision 0040)
        only = getattr(assessor, "only", None)
        return only("ast") if only is not None else assessor

    return Sessions(app, DockerSessions(app.sandbox), SlicedContext, whole=whole)


def execution_policy_from(
    policies: Policies, analysis: AnalysisPolicy, settings: Settings, version: int = 0
) -> ExecutionPolicy:
    limits = policies.limits
    return ExecutionPolicy(
        profiles=dict(limits.profiles),
        runtimes=dict(limits.runtimes),
        trust_rules=limits.trust_rules,
        max_code_bytes=settings.max_code_bytes,
        rules=policies.gate,
        complexity=limits.complexity,
        sample_every_s=limits.sampling.record_every_s,
        sample_above=limits.sampling.record_above,
        egress=policies.network.egress,
        derive_allow_from_index=policies.network.derive_from_pip,
        # The threat list's package names: requirements are checked against them before any fetch.
        threats=KnownThreats(frozenset(analysis.threats.packages)),
        version=version,
        files=limits.files,
        images=limits.images,
        sessions=limits.sessions,
    )


def read_models(app: MaiSafety) -> ReadModels:
    """The read models, in the ledger's own database (docs/decisions/0021)."""
    return ReadModels(app.recorder, app.mapper, views_beside(app.recorder))


def create_ledger_tables(env: dict[str, str]) -> None:
    """Make the ledger's tables with the recorder the service uses, under the application's name
    (``audit init-postgres`` runs this as the database's owner before it hardens them)."""
    factory = open_ledger(Environment(MaiSafety.name, env))
    try:
        factory.application_recorder()
    finally:
        factory.close()


def harden_ledger(owner_url: str, service_role: str, **options: Any) -> dict[str, Any]:
    """``audit init-postgres``: as the owner, make the tables and leave ``service_role`` append-only."""
    from mai_safety.ledger import harden_postgres

    store = choose_store(Settings.from_environment(environ={}, database_url=owner_url))
    if store.kind != "postgres":
        raise ConfigurationError("--owner-url must be a postgresql://OWNER:PASSWORD@HOST:PORT/DB URL")
    return harden_postgres(store.env, store.description, service_role, create_tables=create_ledger_tables, **options)


def signing_keys(settings: Settings) -> KeyFile:
    """The signing key the service holds: the one place that opens it (the audit commands too)."""
    return KeyFile(settings.signing_key_path)


def ledger_config(settings: Settings) -> LedgerConfig:
    """policies/ledger.yaml read with the service's key and folders: sealing, archives, witnesses."""
    return load_ledger_policy(settings.policies_dir, settings.data_dir, signing_keys(settings), state_dir=settings.state_path)


def _pool_specs(limits: LimitsPolicy, pool: bool | dict[str, int] | None) -> tuple[PoolSpec, ...]:
    """One spec per profile the pool keeps containers for, made at the profile's minimum."""
    from .sandbox import PoolSpec

    if pool is False:
        return ()
    sizes = {trust.value: size for trust, size in limits.pool.sizes.items()}
    if isinstance(pool, dict):
        unknown = set(pool) - {trust.value for trust in limits.profiles}
        if unknown:
            raise ConfigurationError(f"no profile named {', '.join(sorted(unknown))}: pool sizes are per profile")
        sizes = dict(pool)
    named = tuple(  # each named image's own pool (images: in limits.yaml), unless the caller chose the sizes
        PoolSpec(
            name=f"{image}/{trust.value}",
            runtime=limits.runtimes.get(trust, "runc"),
            limits=limits.profiles[trust].minimum,
            size=size,
            max_timeout_s=limits.profiles[trust].maximum.timeout_s,
            image=limits.images.tags()[image],
        )
        for image, pools in limits.image_pools.items()
        for trust, size in pools.items()
        if size > 0 and pool is None
    )
    return tuple(
        PoolSpec(
            name=trust.value,
            runtime=limits.runtimes.get(trust, "runc"),
            limits=profile.minimum,
            size=sizes.get(trust.value, 0),
            max_timeout_s=profile.maximum.timeout_s,
        )
        for trust, profile in limits.profiles.items()
        if sizes.get(trust.value, 0) > 0
    ) + named


def _check_store(store: StoreChoice) -> None:
    """Fail before anything is recorded, with one line saying what to do."""
    if store.kind == "sqlite":
        path = Path(store.env["SQLITE_DBNAME"])
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigurationError(f"cannot create the ledger's folder {path.parent}: {exc.strerror}") from None
        if path.is_dir():
            raise ConfigurationError(f"the ledger path {path} is a directory: name a file")
        if not os.access(path.parent, os.W_OK):
            raise ConfigurationError(f"the ledger's folder {path.parent} is not writable: choose another path")
        return
    import psycopg  # only Postgres users pay for importing the driver (~0.15 s per process)

    env = store.env
    try:
        connection = psycopg.connect(
            dbname=env["POSTGRES_DBNAME"],
            host=env["POSTGRES_HOST"],
            port=env.get("POSTGRES_PORT", "5432"),
            user=env["POSTGRES_USER"],
            password=env.get("POSTGRES_PASSWORD", ""),
            connect_timeout=int(float(env.get("POSTGRES_CONNECT_TIMEOUT", "5"))),
        )
        connection.close()
    except psycopg.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "too many clients" in first:  # a busy database, not a missing one
            raise LedgerUnavailable(
                f"the ledger database ({store.description}) has no connection free: {first}. Nothing was recorded: try again in a few seconds"
            ) from None
        raise LedgerUnavailable(
            f"the ledger database ({store.description}) does not answer: {first}. "
            "Start Postgres (docker compose up -d postgres) or check MAI_SAFETY_DATABASE_URL"
        ) from None
    except KeyError as exc:
        raise ConfigurationError(f"the Postgres setting {exc.args[0]} is missing") from None


def start_alerts(settings: Settings, service: MaiSafety) -> AlertFollower:
    """The webhook alerts of the alerts.yaml in force (the version the ledger holds, followed as
    versions are applied), following ``service``'s ledger from its head. Close it before the
    service (docs/decisions/0022, 0032)."""

    def load(version: int, files: dict[str, str]) -> AlertsPolicy | None:
        loader = service.policy_loader
        if version == 0 or not isinstance(loader, FolderPolicyLoader):
            return load_alerts_policy(settings.policies_dir)
        return load_alerts_policy(loader.folder(version, files))

    version = service.recorded_policy_version()  # one indexed read; the files only when a version was applied
    policy = load(version, service.policy_in_force().files if version else {})
    sender = WebhookSender(policy.webhook) if policy is not None else None
    return AlertFollower(service.recorder, service.mapper, policy, sender, AlertsInForce(load)).start()


def alert_verify_failed(settings: Settings, report: VerificationReport, actor: str, wait_s: float = 10.0) -> None:
    """Tell the webhook (if one is set) that ``audit verify`` found the ledger not intact."""
    policy = load_alerts_policy(settings.policies_dir)
    if policy is None or "verify_failed" not in policy.events:
        return
    sender = WebhookSender(policy.webhook)
    sender.offer(verify_failed_alert(report.head_position, report.checked, report.problems, actor, datetime.now(timezone.utc).isoformat()))
    sender.close(wait_s)
