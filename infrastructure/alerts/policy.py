"""policies/alerts.yaml: the optional webhook that is told of what a security officer must see.

Validated like every policy file (policies/files.py): one ConfigurationError naming the file, the key
and what was expected. The shared secret is never in the YAML: the policy names a file holding it
(``secret_file``) or an environment variable (``secret_env``), read once at load."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from mai_safety.application.errors import ConfigurationError

from ..policies.files import StrictModel, load

AlertKind = Literal["blocked", "override", "violation", "verify_failed"]
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

    @model_validator(mode="after")
    def _one_secret(self) -> _Webhook:
        if (self.secret_file is None) == (self.secret_env is None):
            raise ValueError("name the shared secret with exactly one of secret_file or secret_env")
        return self


class _AlertsFile(StrictModel):
    version: Literal[1]
    webhook: _Webhook | None = None
    events: list[AlertKind] = Field(default_factory=lambda: ["blocked", "override", "violation", "verify_failed"])
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
    return AlertsPolicy(
        webhook=WebhookPolicy(
            url=hook.url,
            secret=_secret(path, hook),
            timeout_s=hook.timeout_s,
            attempts=hook.attempts,
            backoff_s=hook.backoff_s,
            max_backoff_s=hook.max_backoff_s,
            queue=hook.queue,
        ),
        events=frozenset(loaded.events),
        violation_reasons=frozenset(loaded.violation_reasons),
        poll_s=loaded.poll_s,
    )


def _secret(path: Path, hook: _Webhook) -> bytes:
    if hook.secret_env is not None:
        key = "webhook.secret_env"
        value = os.environ.get(hook.secret_env, "").strip().encode()
        where = f"the environment variable {hook.secret_env}"
    else:
        key = "webhook.secret_file"
        secret_path = Path(str(hook.secret_file)).expanduser()
        where = f"the file {secret_path}"
        try:
            value = secret_path.read_bytes().strip()
        except OSError as exc:
            raise ConfigurationError(f"policy file {path}: key {key}: {where} cannot be read ({exc.strerror or exc})") from None
    if len(value) < _MIN_SECRET_BYTES:
        raise ConfigurationError(f"policy file {path}: key {key}: {where} must hold a secret of at least {_MIN_SECRET_BYTES} bytes")
    return value
