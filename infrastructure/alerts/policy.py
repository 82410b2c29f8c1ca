"""policies/alerts.yaml: the optional webhook that is told of what a security officer must see.

Validated like every policy file (policies/files.py): one ConfigurationError naming the file, the key
and what was expected. The shared secret is never in the YAML: the policy names an environment
variable (``secret_env``) or a file (``secret_file``) by its bare name in the secrets folder
(``MAI_SAFETY_SECRETS_DIR``, by default ``$XDG_CONFIG_HOME/mai-safety/secrets``), read as a regular
file that stays inside that folder. A policy is applied by an admin over HTTP and checked by the
service, which may read what the admin may not: a path is refused by its form, before anything is
opened, and every reason a named secret cannot be used (missing, not a regular file, a link out of
the folder, unreadable, too short) gets one answer, so validation tells nothing about other files
(docs/decisions/0032). The URL is checked by destination.py."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.errors import InvalidSubmission

from ..input_files import UnreadableInput, read_regular_file
from ..policies.files import StrictModel, load
from .destination import RefusedDestination, check_url, loopback_allowed

SECRETS_SETTING = "MAI_SAFETY_SECRETS_DIR"
_SECRET_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")

AlertKind = Literal["blocked", "override", "violation", "verify_failed", "diverged"]
#: Terminations that are a violation: a limit or a policy stopped the code. Not "timeout" by
#: default: the wall-clock limit is the caller's own budget, and a long job reaching it is routine
#: (add it to ``violation_reasons`` to be told). Cancelled, denied, unanswered runs, and the
#: service's own failures (sandbox_error, supervisor_lost...) are not the code's doing.
DEFAULT_VIOLATIONS = ("memory", "pids", "cpu_time", "disk", "output_limit")
_MIN_SECRET_BYTES = 16


class _Webhook(StrictModel):
    url: str = Field(pattern=r"^https?://[^\s/]+\S*$")
    secret_file: str | None = None
    secret_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    timeout_s: float = Field(default=5.0, gt=0, le=60)
    attempts: int = Field(default=5, ge=1, le=20)
    backoff_s: float = Field(default=1.0, ge=0, le=60)
    max_backoff_s: float = Field(default=60.0, ge=0, le=3600)
    queue: int = Field(default=1000, ge=1, le=100_000)

    @field_validator("secret_file")
    @classmethod
    def _a_name_in_the_secrets_folder(cls, name: str | None) -> str | None:
        if name is not None and not _SECRET_NAME.match(name):
            raise ValueError(
                f"name a file of the secrets folder ({SECRETS_SETTING}) by its bare name (letters, digits, '.', '_', '-'), not a path"
            )
        return name

    @model_validator(mode="after")
    def _one_secret(self) -> _Webhook:
        if (self.secret_file is None) == (self.secret_env is None):
            raise ValueError("name the shared secret with exactly one of secret_file or secret_env")
        return self


class _AlertsFile(StrictModel):
    version: Literal[1]
    webhook: _Webhook | None = None
    events: list[AlertKind] = Field(default_factory=lambda: ["blocked", "override", "violation", "verify_failed", "diverged"])
    violation_reasons: list[str] = Field(default_factory=lambda: list(DEFAULT_VIOLATIONS))
    poll_s: float = Field(default=0.5, gt=0, le=60)


@dataclass(frozen=True)
class WebhookPolicy:
    url: str
    secret: bytes
    timeout_s: float
    attempts: int
    backoff_s: float
    max_backoff_s: float
    queue: int
    allow_loopback: bool = False  # MAI_SAFETY_WEBHOOK_LOOPBACK=allow (destination.py)


@dataclass(frozen=True)
class AlertsPolicy:
    webhook: WebhookPolicy
    events: frozenset[str]
    violation_reasons: frozenset[str]
    poll_s: float


def load_alerts_policy(policies_dir: Path) -> AlertsPolicy | None:
    """None when the file is absent or names no webhook: alerts are off."""
    path = policies_dir / "alerts.yaml"
    if not path.exists():
        return None
    loaded: _AlertsFile = load(path, _AlertsFile)
    if loaded.webhook is None:
        return None
    hook = loaded.webhook
    allow_loopback = loopback_allowed()
    try:
        check_url(hook.url, allow_loopback=allow_loopback)
    except RefusedDestination as exc:
        raise ConfigurationError(f"policy file {path}: key webhook.url: {exc}: alerts may not go there") from None
    return AlertsPolicy(
        webhook=WebhookPolicy(
            url=hook.url,
            secret=_secret(path, hook),
            timeout_s=hook.timeout_s,
            attempts=hook.attempts,
            backoff_s=hook.backoff_s,
            max_backoff_s=hook.max_backoff_s,
            queue=hook.queue,
            allow_loopback=allow_loopback,
        ),
        events=frozenset(loaded.events),
        violation_reasons=frozenset(loaded.violation_reasons),
        poll_s=loaded.poll_s,
    )


def secrets_dir() -> Path:
    """Where a webhook's ``secret_file`` is looked for."""
    configured = os.environ.get(SECRETS_SETTING)
    if configured:
        return Path(configured).expanduser()
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "mai-safety" / "secrets"


def _secret(path: Path, hook: _Webhook) -> bytes:
    if hook.secret_env is not None:
        key = "webhook.secret_env"
        value = os.environ.get(hook.secret_env, "").strip().encode()
        where = f"the environment variable {hook.secret_env}"
    else:
        folder = secrets_dir()
        try:
            value = read_regular_file(str(folder / str(hook.secret_file)), 4096, within=str(folder)).strip()
        except (UnreadableInput, InvalidSubmission, OSError):
            value = b""  # one answer for missing, refused and unreadable: validation is no oracle
        if len(value) < _MIN_SECRET_BYTES:
            raise ConfigurationError(
                f"policy file {path}: key webhook.secret_file: no usable secret named {hook.secret_file} in the secrets "
                f"folder ({SECRETS_SETTING}): a regular file there holding at least {_MIN_SECRET_BYTES} bytes"
            )
        return value
    if len(value) < _MIN_SECRET_BYTES:
        raise ConfigurationError(f"policy file {path}: key {key}: {where} must hold a secret of at least {_MIN_SECRET_BYTES} bytes")
    return value
