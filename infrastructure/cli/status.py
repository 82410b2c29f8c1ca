"""``mai-safety status``: what answers and what does not, for a person or for monitoring.

Exit 0 when the Docker engine answers, the sandbox images are present and the ledger answers;
5 when one of them does not (each part says why); 6 for an invalid setting or policy (raised
before this runs). gVisor missing is reported, not a failure: untrusted code then runs under runc
with the reason recorded on its ``Started`` (policy ``runtime: auto``).
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from importlib import metadata
from typing import Any

import psutil
from eventsourcing.persistence import PersistenceError

from mai_safety.domain.errors import MaiSafetyError

from ..policies import load_policies
from .exit_codes import EXIT_OK, EXIT_UNAVAILABLE
from ..settings import Settings



def status(settings: Settings) -> tuple[dict[str, Any], int]:
    """The status report and the exit status it calls for."""
    from ..sandbox.engine import engine_status  # Docker's client: only the command that asks the engine imports it

    policies = load_policies(settings.policies_dir)
    engine = engine_status(settings.image, policies.network.proxy_image)
    ledger = _ledger(settings)
    # The images a run may ask for by name (images: in limits.yaml): listed, not required to be healthy.
    named = {name: {"tag": tag, "present": _present(tag)} for name, tag in policies.limits.images.tags().items()} if engine["answers"] else {}
    report = {
        "docker": engine,
        "named_images": named,
        "ledger": ledger,
        "analyzers": {name: _version(name) for name in ("bandit", "semgrep")},
        "host": _host(),
    }
    healthy = engine["answers"] and all(engine["images"].values()) and ledger["answers"]
    return report, EXIT_OK if healthy else EXIT_UNAVAILABLE


def _present(tag: str) -> bool:
    from ..sandbox.engine import engine_status

    return bool(engine_status(tag, tag)["images"].get(tag))


def print_status(settings: Settings, as_json: bool) -> int:
    report, code = status(settings)
    if as_json:
        print(json.dumps(report, indent=2, default=str))
        return code
    engine, ledger, host = report["docker"], report["ledger"], report["host"]
    if engine["answers"]:
        print(f"docker:    answers (engine {engine['version']}); runtimes: {', '.join(engine['runtimes'])}")
        gvisor = engine["gvisor"]
        print("gvisor:    " + _gvisor_line(gvisor))
        observed = gvisor.get("observed") or {}
        if gvisor.get("available"):
            print("observed:  " + (
                f"runs under gVisor are traced from outside the code (runtime {observed.get('runtime')}, log {observed.get('log_directory')})"
                if observed.get("available") else f"not available: {observed.get('reason')} ({observed.get('how', '')}); under runc only process argv is seen"
            ))
        for image, present in engine["images"].items():
            print(f"image:     {image}: {'present' if present else 'MISSING (bash scripts/setup.sh builds it)'}")
        for name, image in report["named_images"].items():
            built = "present" if image["present"] else f"not built (bash scripts/build-images.sh sandbox-{name})"
            print(f"image:     {image['tag']} (--image {name}): {built}")
    else:
        print(f"docker:    DOES NOT ANSWER ({engine['reason']})")
    if ledger["answers"]:
        age = ledger["newest_checkpoint_age_s"]
        print(f"ledger:    answers ({ledger['location']}); head at position {ledger['head']}; newest checkpoint "
              + (f"at position {ledger['newest_checkpoint']}, {age:.0f} s old" if age is not None else "none yet"))
        print(f"key:       {ledger['signing_key']}")
        views = ledger["projections"]
        if "lag" in views:
            oldest = f", the oldest since {views['oldest_pending_since'][:19]}" if views["oldest_pending_since"] else ""
            print(f"views:     {views['lag_found']} events behind the ledger when asked (now at {views['position']}); "
                  f"{views['pending']} waiting for an answer{oldest}")
        else:
            print(f"views:     CANNOT BE READ ({views['detail']})")
    else:
        print(f"ledger:    DOES NOT ANSWER ({ledger['reason']})")
    print("analyzers: " + ", ".join(f"{name} {version}" for name, version in report["analyzers"].items()))
    print(f"host:      {host['cpus']} cores, {host['memory_available_bytes'] // (1 << 20)} MiB memory free")
    return code


def _gvisor_line(gvisor: dict[str, Any]) -> str:
    """Whether runs get gVisor, and which gVisor the engine's registered binary says it is."""
    state = "available (runtime runsc)" if gvisor.get("available") else f"not available: {gvisor.get('reason')}"
    return state + (f"; checked {gvisor['path']}: {gvisor['version']}" if gvisor.get("version") else "")


def _ledger(settings: Settings) -> dict[str, Any]:
    # The composition root builds the ledger exactly as a run would see it.
    from ..bootstrap import bootstrap

    url = settings.database_url or f"sqlite:///{settings.data_dir / 'ledger.sqlite'}"
    location = url.split("@")[-1]  # never the credentials
    try:
        app = bootstrap(settings, one_shot=True)
    except (MaiSafetyError, PersistenceError, OSError) as exc:
        return {"answers": False, "location": location, "reason": getattr(exc, "message", str(exc))[:300]}
    try:
        checkpoint = app.audit.checkpoint(seal=False)
        head = app.recorder.max_notification_id() or 0
        keys = app.audit.policy.keys if app.audit.policy is not None else None
        signed = checkpoint.signed_time if checkpoint is not None else None
        return {
            "answers": True,
            "location": location,
            "head": head,
            "newest_checkpoint": checkpoint.position if checkpoint is not None else None,
            "newest_checkpoint_age_s": (
                (datetime.now(timezone.utc) - signed).total_seconds() if signed is not None else None
            ),
            "signing_key": _key_state(keys),
            "projections": _projections(app),
        }
    except (MaiSafetyError, PersistenceError, OSError) as exc:
        return {"answers": False, "location": location, "reason": getattr(exc, "message", str(exc))[:300]}
    finally:
        app.close()


def _projections(app: Any) -> dict[str, Any]:
    """The views' lag as found (no server keeps them here), then caught up: what waits for an answer."""
    from ..bootstrap import read_models

    try:
        models = read_models(app)
        found = models.lag()["lag"]
        models.catch_up()
        return {**models.summary(), "lag_found": found}
    except (MaiSafetyError, PersistenceError, OSError) as exc:
        return {"detail": getattr(exc, "message", str(exc))[:300]}


def _key_state(keys: Any) -> str:
    """readable, none yet (made at the first write), or not readable (by this user, here)."""
    if keys is None:
        return "not readable"
    try:
        return "readable" if keys.public_key() is not None else "none yet"
    except (MaiSafetyError, OSError, ValueError):
        return "not readable"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _host() -> dict[str, Any]:
    memory = psutil.virtual_memory()
    return {"cpus": psutil.cpu_count(), "memory_available_bytes": memory.available, "load": list(psutil.getloadavg()), "at": time.time()}
