"""Settings: read once from the environment (and CLI flags), validated, unknown names refused."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from mai_safety.application.errors import ConfigurationError
from mai_safety.ledger import ANSWER_SETTING, ANSWER_WITHIN_S, POSTGRES_MODULE, SQLITE_MODULE
from mai_safety.infrastructure.private_files import private_data_folder, private_folder, private_tree

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_IMAGE = "mai-safety/sandbox:1"
DEFAULT_MAX_CODE_BYTES = 1024 * 1024
#: On Postgres, the most connections one long-lived process (the service, the Python API) holds in
#: its pool; it opens one and grows on demand. The work lock of recovery and the sweep takes one
#: more of its own while it is held (ledger/work_lock.py). The README's "faults" table has the figures.
LEDGER_CONNECTIONS = 10
#: A one-shot CLI process: one pooled connection (and the work lock's own while it recovers).
CLI_LEDGER_CONNECTIONS = 1

#: Settings the service reads, with what each means (shown when an unknown one is met).
SERVICE_SETTINGS = {
    "MAI_SAFETY_DATABASE_URL": "the ledger: sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/DB",
    "MAI_SAFETY_POLICIES": "the policy directory (default: the checkout's policies/, else the copy installed with the package)",
    "MAI_SAFETY_IMAGE": f"the sandbox image (default {DEFAULT_IMAGE})",
    "MAI_SAFETY_DATA_DIR": (
        "where the embedded SQLite ledger lives (default ~/.local/share/mai-safety); made owner-only (0700): "
        "give it a folder of its own"
    ),
    "MAI_SAFETY_WORK_DIR": (
        "where each run's folder is made (default: the temporary folder); inside a container, a folder "
        "mounted at the same path on the host (docs/decisions/0017)"
    ),
    "MAI_SAFETY_IN_CONTAINER": (
        "1 when mai-safety runs in a container beside the Docker engine (the service image sets it): "
        "runs then need MAI_SAFETY_WORK_DIR, and --network deps is refused (docs/decisions/0017)"
    ),
    "MAI_SAFETY_MAX_CODE_BYTES": f"the largest program accepted (default {DEFAULT_MAX_CODE_BYTES})",
    "MAI_SAFETY_ACTOR": "who is acting, stamped on every event (default USER@HOST)",
    "MAI_SAFETY_LEDGER_ANSWER_S": (
        "on Postgres, how long one use of a connection may wait for the database before it is cut and "
        "callers are told the ledger does not answer (default 30)"
    ),
    "MAI_SAFETY_LEDGER_CONNECTIONS": (
        f"on Postgres, the most pooled connections the service holds (default {LEDGER_CONNECTIONS}; a CLI command holds "
        f"{CLI_LEDGER_CONNECTIONS}), each opened when needed"
    ),
    "MAI_SAFETY_SIGNING_KEY": (
        "the Ed25519 key that signs ledger checkpoints and MACs its events "
        "(default $XDG_CONFIG_HOME/mai-safety/signing-key.pem, or DATA_DIR/signing-key.pem where an older install left one)"
    ),
    "MAI_SAFETY_SECRETS_DIR": "the folder whose files alerts.yaml's webhook.secret_file names (default $XDG_CONFIG_HOME/mai-safety/secrets)",
    "MAI_SAFETY_WEBHOOK_LOOPBACK": "allow: the alerts webhook may be on this host's loopback (refused otherwise)",
}
#: Settings the project's scripts and tests read, and the client's (mai_safety.client, the CLI in
#: client mode, `mai-safety mcp`): accepted here so that setting them is never an error.
SCRIPT_SETTINGS = {
    "MAI_SAFETY_URL",  # the service the client talks to; with it set the CLI is a client of the service
    "MAI_SAFETY_TOKEN",
    "MAI_SAFETY_TOKEN_FILE",
    "MAI_SAFETY_IMAGE_BUILD",
    "MAI_SAFETY_REBUILD_IMAGES",
    "MAI_SAFETY_DEBIAN_MIRROR",
    "MAI_SAFETY_POSTGRES_IMAGE",
    "MAI_SAFETY_TEST_DATABASE_URL",
    "MAI_SAFETY_INSTALL_GVISOR",  # setup.sh: register runsc with an engine it did not start itself
    "MAI_SAFETY_SERVICE_IMAGE",  # build-images.sh and docker-compose.yml: the service's image
    "MAI_SAFETY_PORT",  # docker-compose.yml: the loopback port the service is published on
    "MAI_SAFETY_COMPOSE",  # setup.sh: 0 skips installing Compose
    "MAI_SAFETY_LOCAL_SERVICE",  # cli/user_service.py: 0 runs every command in-process (docs/local-service.md)
    "MAI_SAFETY_LOCAL_SERVICE_IDLE_S",  # cli/user_service.py: the per-user service's idle period (default 300)
}


def default_policies_dir() -> Path:
    """The checkout's policies/ when running from it (an editable install maps the package here);
    from an installed wheel this module sits in site-packages/mai_safety/infrastructure/, and the
    same parent holds the policies shipped as package data: site-packages/mai_safety/policies/."""
    return PROJECT_ROOT / "policies"


@dataclass(frozen=True)
class Settings:
    database_url: str | None
    policies_dir: Path
    image: str
    data_dir: Path
    max_code_bytes: int
    actor: str | None
    signing_key: Path | None = None  # None: the default below
    config_dir: Path | None = None  # $XDG_CONFIG_HOME/mai-safety: the signing key, away from the ledger
    state_dir: Path | None = None  # $XDG_STATE_HOME/mai-safety: the default ledger witness
    work_dir: Path | None = None  # MAI_SAFETY_WORK_DIR: where runs' folders are made (None: the temporary folder)
    in_container: bool = False  # MAI_SAFETY_IN_CONTAINER=1: this process's files are not the Docker engine's
    ledger_answer_s: float = ANSWER_WITHIN_S  # MAI_SAFETY_LEDGER_ANSWER_S: Postgres, one use of a connection
    ledger_connections: int = LEDGER_CONNECTIONS  # MAI_SAFETY_LEDGER_CONNECTIONS: Postgres, the pool's most

    @property
    def signing_key_path(self) -> Path:
        """MAI_SAFETY_SIGNING_KEY; else a key an older install made in the data folder (so that its
        ledger still verifies; `audit verify` warns that it sits beside the ledger); else
        signing-key.pem in the configuration folder, not the ledger's (docs/decisions/0011)."""
        if self.signing_key is not None:
            return self.signing_key
        legacy = self.data_dir / "signing-key.pem"
        if legacy.exists():
            return legacy
        return self.config_path / "signing-key.pem"

    @property
    def state_path(self) -> Path:
        return self.state_dir or Path.home() / ".local" / "state" / "mai-safety"

    @property
    def config_path(self) -> Path:
        return self.config_dir or Path.home() / ".config" / "mai-safety"


    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None, database_url: str | None = None) -> "Settings":
        environ = dict(os.environ if environ is None else environ)
        unknown = sorted(
            name
            for name in environ
            if name.startswith("MAI_SAFETY_") and name not in SERVICE_SETTINGS and name not in SCRIPT_SETTINGS
        )
        if unknown:
            known = ", ".join(sorted(SERVICE_SETTINGS))
            raise ConfigurationError(f"unknown setting {unknown[0]}: unset it or use one of {known}")
        max_bytes_text = environ.get("MAI_SAFETY_MAX_CODE_BYTES", str(DEFAULT_MAX_CODE_BYTES))
        try:
            max_code_bytes = int(max_bytes_text)
            if max_code_bytes <= 0:
                raise ValueError
        except ValueError:
            raise ConfigurationError(
                f"MAI_SAFETY_MAX_CODE_BYTES={max_bytes_text!r} is not a positive number of bytes"
            ) from None
        answer_text = environ.get("MAI_SAFETY_LEDGER_ANSWER_S", str(ANSWER_WITHIN_S))
        try:
            ledger_answer_s = float(answer_text)
            if not 0 < ledger_answer_s <= 3600:
                raise ValueError
        except ValueError:
            raise ConfigurationError(
                f"MAI_SAFETY_LEDGER_ANSWER_S={answer_text!r} is not a number of seconds between 0 and 3600"
            ) from None
        connections_text = environ.get("MAI_SAFETY_LEDGER_CONNECTIONS", str(LEDGER_CONNECTIONS))
        try:
            ledger_connections = int(connections_text)
            if not 1 <= ledger_connections <= 1000:
                raise ValueError
        except ValueError:
            raise ConfigurationError(
                f"MAI_SAFETY_LEDGER_CONNECTIONS={connections_text!r} is not a number of connections between 1 and 1000"
            ) from None
        data_home = Path(environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        config_home = Path(environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
        state_home = Path(environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
        return cls(
            database_url=database_url or environ.get("MAI_SAFETY_DATABASE_URL") or None,
            policies_dir=Path(environ.get("MAI_SAFETY_POLICIES") or default_policies_dir()),
            image=environ.get("MAI_SAFETY_IMAGE") or DEFAULT_IMAGE,
            data_dir=Path(environ.get("MAI_SAFETY_DATA_DIR") or data_home / "mai-safety"),
            max_code_bytes=max_code_bytes,
            actor=environ.get("MAI_SAFETY_ACTOR") or None,
            signing_key=Path(environ["MAI_SAFETY_SIGNING_KEY"]).expanduser() if environ.get("MAI_SAFETY_SIGNING_KEY") else None,
            config_dir=config_home / "mai-safety",
            state_dir=state_home / "mai-safety",
            work_dir=Path(environ["MAI_SAFETY_WORK_DIR"]) if environ.get("MAI_SAFETY_WORK_DIR") else None,
            in_container=_flag(environ, "MAI_SAFETY_IN_CONTAINER"),
            ledger_answer_s=ledger_answer_s,
            ledger_connections=ledger_connections,
        )


def keep_private(settings: Settings) -> None:
    """What this user's mai-safety keeps on the host, owner-only whatever the umask
    (infrastructure/private_files.py): the data folder, made 0700 with what we keep in it 0600;
    the state folder (the default witness) tightened with all it holds, where it is; the
    configuration folder 0700 where it is (the signing key and a client's token in it refuse
    looser modes themselves). Their writers make them 0700. Anything there of another user's is
    refused in one line."""
    private_data_folder(settings.data_dir)
    if settings.state_path.is_dir():
        private_tree(settings.state_path, "the state folder")
    if settings.config_path.is_dir():
        private_folder(settings.config_path, "the configuration folder")


def _flag(environ: dict[str, str], name: str) -> bool:
    value = environ.get(name, "").strip().lower()
    if value in ("", "0", "false", "no"):
        return False
    if value in ("1", "true", "yes"):
        return True
    raise ConfigurationError(f"{name}={value!r} is neither 1 nor 0")


@dataclass(frozen=True)
class StoreChoice:
    """Which ledger, as the eventsourcing environment that selects it."""

    kind: str  # "sqlite" | "postgres"
    env: dict[str, str]
    description: str




#: The Postgres ledger's module before the ledger's wing (docs/decisions/0036): an operator's
#: environment may still name it.
_POSTGRES_BEFORE_THE_WING = "mai_safety.infrastructure.ledger.postgres"


def choose_store(settings: Settings, environ: dict[str, str] | None = None) -> StoreChoice:
    environ = dict(os.environ if environ is None else environ)
    url = settings.database_url
    if url is None and environ.get("PERSISTENCE_MODULE") in ("eventsourcing.postgres", POSTGRES_MODULE, _POSTGRES_BEFORE_THE_WING):
        env = {key: value for key, value in environ.items() if key.startswith("POSTGRES_")}
        env["PERSISTENCE_MODULE"] = POSTGRES_MODULE
        env[ANSWER_SETTING] = str(settings.ledger_answer_s)
        for name, value in _pool_env(settings).items():
            env.setdefault(name, value)  # eventsourcing's own variables, when set, are the operator's choice
        return StoreChoice("postgres", env, f"postgres database {env.get('POSTGRES_DBNAME', '?')}")
    if url is None:
        path = settings.data_dir / "ledger.sqlite"
        return StoreChoice("sqlite", {"PERSISTENCE_MODULE": SQLITE_MODULE, "SQLITE_DBNAME": str(path)}, f"sqlite {path}")
    if url.startswith("sqlite:///"):
        raw = url[len("sqlite:///") :]
        if not raw:
            raise ConfigurationError(f"database URL {url!r} names no file: write sqlite:///PATH")
        path = Path(unquote(raw)).expanduser().resolve()
        return StoreChoice("sqlite", {"PERSISTENCE_MODULE": SQLITE_MODULE, "SQLITE_DBNAME": str(path)}, f"sqlite {path}")
    parsed = urlparse(url)
    if parsed.scheme in ("postgresql", "postgres"):
        database = parsed.path.lstrip("/")
        if not (parsed.hostname and database and parsed.username):
            raise ConfigurationError(
                f"database URL {_redact(url)} needs a user, a host and a database: "
                "postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
            )
        env = {
            "PERSISTENCE_MODULE": POSTGRES_MODULE,
            "POSTGRES_DBNAME": unquote(database),
            "POSTGRES_HOST": parsed.hostname,
            "POSTGRES_PORT": str(parsed.port or 5432),
            "POSTGRES_USER": unquote(parsed.username),
            "POSTGRES_PASSWORD": unquote(parsed.password or ""),
            "POSTGRES_CONNECT_TIMEOUT": "20",  # a connection, or one from the pool: a busy host is not a dead database
            ANSWER_SETTING: str(settings.ledger_answer_s),  # one use of a connection (ledger/answer_watch.py)
            **_pool_env(settings),
        }
        return StoreChoice("postgres", env, f"postgres {parsed.hostname}:{parsed.port or 5432}/{database}")
    raise ConfigurationError(
        f"database URL {_redact(url)} is neither sqlite:///PATH nor postgresql://USER:PASSWORD@HOST:PORT/DB"
    )


def _pool_env(settings: Settings) -> dict[str, str]:
    """The library's pool: one connection opened, grown on demand to ``ledger_connections`` (its
    own default, 5 opened at once and 15 at most, let 16 CLI runs exhaust Postgres' 100)."""
    return {"POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": str(settings.ledger_connections - 1)}


def _redact(url: str) -> str:
    parsed = urlparse(url)
    if parsed.password:
        return url.replace(f":{parsed.password}@", ":***@")
    return url
