"""The command line's wording of our errors: the flags to change, the policy file to edit, the
environment variable to set. The domain's errors say what went wrong as fields and a plain message
(domain/errors.py); this module, beside exit_codes.py (the error -> exit status table), turns them
into what a person at a shell can act on. The HTTP API words the same fields as JSON fields
(infrastructure/http/problems.py).

It imports only the domain, never the application: the thin client uses ``field_hint``.
"""

from __future__ import annotations

from mai_safety.domain.errors import ExplanationMissing, KnownMaliciousRequirement, LimitOutOfPolicy, MaiSafetyError, SubmissionTooLarge
from mai_safety.domain.gate import NotPermitted
from mai_safety.domain.limits import format_size
from mai_safety.domain.network import NetworkNotAllowed
from mai_safety.domain.run_request import RequestNoLongerGranted

#: Each limit a caller may ask for (a ResourceLimits field) -> the `run` flag that asks for it.
LIMIT_FLAGS = {
    "cpus": "--cpus",
    "memory_bytes": "--memory",
    "pids": "--pids",
    "timeout_s": "--timeout",
    "output_bytes": "--output-limit",
    "cpu_seconds": "--cpu-seconds",
}
#: A JSON field the HTTP API names in a problem (``field``) -> what the thin client adds to its
#: detail: the flag that gives it on the command line.
FIELD_HINTS = {
    **{f"limits.{name}": f" ({flag})" for name, flag in LIMIT_FLAGS.items()},
    "explanation": ": pass --explanation",
    "network": " (--network)",
    "requirements": " (--requirement)",
}

GATE_POLICY = "policies/gate.yaml"
LIMITS_POLICY = "policies/limits.yaml"
NETWORK_POLICY = "policies/network.yaml"
THREATS_POLICY = "policies/threats.yaml"
MAX_CODE_VARIABLE = "MAI_SAFETY_MAX_CODE_BYTES"


def cli_message(error: MaiSafetyError) -> str:
    """What the CLI prints for ``error``: its message in the CLI's own words where the error's
    fields allow, else the message as the domain or the application wrote it."""
    if isinstance(error, RequestNoLongerGranted) and error.refusal is not None:
        return error.message.replace(error.refusal.message, cli_message(error.refusal), 1)
    if isinstance(error, LimitOutOfPolicy) and error.limit in LIMIT_FLAGS:
        return _limit_message(error, LIMIT_FLAGS[error.limit])
    if isinstance(error, NotPermitted) and error.allowed_actors is not None:
        # Locally the actor is whatever the caller's environment says: never tell the caller how to
        # pass as someone else. Say who answers, and what the owner of the machine may change.
        return (
            f"{error.message} ({GATE_POLICY}): only one of them may answer it; "
            f"who may is for the owner of this machine to change, in {GATE_POLICY} (mai-safety policy apply DIR)"
        )
    if isinstance(error, NetworkNotAllowed) and error.trust is not None:
        return _network_message(error)
    if isinstance(error, KnownMaliciousRequirement):
        return f"requirement {error.requirement!r} names a known-malicious package ({THREATS_POLICY}): nothing was fetched; remove it"
    if isinstance(error, SubmissionTooLarge):
        return f"{error.message} or raise {MAX_CODE_VARIABLE}"
    if isinstance(error, ExplanationMissing):
        return f"{error.message}: pass --explanation"
    return error.message


def field_hint(field: object) -> str:
    """What the thin client adds to a problem's detail for the JSON field it names ("" for none)."""
    return FIELD_HINTS.get(field, "") if isinstance(field, str) else ""


def _limit_message(error: LimitOutOfPolicy, flag: str) -> str:
    if error.allowed is None:  # not positive
        return f"{flag} must be more than zero, got {error.asked}"
    assert error.limit is not None and error.asked is not None
    is_size = error.limit.endswith("bytes")
    shown = format_size(int(error.allowed)) if is_size else f"{error.allowed:g}"
    asked = format_size(int(error.asked)) if is_size else f"{error.asked:g}"
    return (
        f"{flag} {asked} is above what the policy allows {error.trust} code ({shown}): "
        f"ask for at most that, or change the profile in {LIMITS_POLICY}"
    )


def _network_message(error: NetworkNotAllowed) -> str:
    if error.runtime is not None:
        return (
            f"--network deps is refused for {error.trust} code: {LIMITS_POLICY} runs it under gVisor "
            f"(runtime: {error.runtime}), whose networking is off; run it without network, or give the profile "
            "runtime: auto (deps then run under runc, recorded)"
        )
    allowed = ", ".join(error.allowed_trust or ()) or "no trust level"
    return f"--network deps is not allowed for {error.trust} code ({NETWORK_POLICY} allows: {allowed}); run it without network"
