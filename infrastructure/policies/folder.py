"""A policy folder as a whole: its files (read, hashed, written back from the ledger) and its
validation, through the same loaders the service uses, plus the hard rules of domain.hard_rules.

``check_folder`` raises one ConfigurationError whose lines each name the file, the key and what
was expected; nothing is recorded or changed by it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from mai_safety.application.errors import ConfigurationError, InvalidPolicy
from mai_safety.domain.hard_rules import HARDENING_KEYS, HostCapacity, PolicyUnderReview, weakenings
from mai_safety.domain.policy_set import PolicyFileRecord

from ..private_files import write_private
from .execution import Policies, load_policies
from .files import read_yaml
from .reader import check_sizes, read_folder, reading_folder
def check_names(files: dict[str, str]) -> None:
    """Each name is one a policy folder's file has (``read_folder``'s patterns): ``NAME.yaml`` at
    its top or ``semgrep/NAME.yaml``, NAME a plain file name. Anything else (empty, ``.``, a
    folder, a NUL or a control character, a backslash, a path out of the folder) is refused by
    name before anything is written: InvalidPolicy about the field ``files``."""
    for name in sorted(files):
        if name.startswith("/") or ".." in name.split("/"):
            raise InvalidPolicy(f"policy file name {name!r} must stay inside the folder", field="files")
        folder, _, base = name.rpartition("/")
        stem = base.removesuffix(".yaml")
        if (
            folder not in ("", "semgrep")
            or not base.endswith(".yaml")
            or not stem
            or stem.startswith(".")
            or any(char == "\\" or not char.isprintable() for char in stem)
        ):
            raise InvalidPolicy(
                f"policy file name {name!r} is not a policy file's: a policy holds NAME.yaml and semgrep/NAME.yaml, "
                "NAME a plain file name (no '/', '\\', control character, or leading '.')",
                field="files",
            )


def records_of(files: dict[str, str]) -> dict[str, PolicyFileRecord]:
    return {
        name: PolicyFileRecord(sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(), text=text)
        for name, text in sorted(files.items())
    }


def write_folder(files: dict[str, str], directory: Path) -> Path:
    """Write ``files`` (as recorded) into ``directory``, which the loaders can then read; a
    folder already written with the same names is kept (a version's files never change)."""
    for name in files:
        if name.startswith("/") or ".." in Path(name).parts:
            raise ConfigurationError(f"policy file name {name!r} must stay inside the folder")
    marker = directory / ".complete"
    if marker.exists():
        return directory
    for name, text in files.items():
        write_private(directory / name, text)  # owner-only, as all kept in the data folder
    write_private(marker, "")
    return directory


def host_room() -> HostCapacity:
    pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    return HostCapacity(cpus=os.cpu_count() or 1, memory_bytes=pages * page_size)


def check_folder(directory: Path, host: HostCapacity | None = None) -> Policies:
    """Load every file as the service does, then refuse what weakens a hard rule; the loaded
    policies, or InvalidPolicy (a ConfigurationError: exit 6) whose lines each say what is wrong."""
    try:
        return _check_folder(directory, host)
    except InvalidPolicy:
        raise
    except ConfigurationError as exc:
        raise InvalidPolicy(exc.message) from None


def _check_folder(directory: Path, host: HostCapacity | None) -> Policies:
    from ..alerts.policy import load_alerts_policy
    from ..analysis.policy import load_analysis_policy  # the analyzers' own loader, beside them
    from mai_safety.ledger import check_ledger_file

    with reading_folder(directory) as folder:  # each file read and parsed once, for every loader
        folder.files()  # sizes and encodings first
        _refuse_hardening_keys(directory / "limits.yaml")
        policies = load_policies(directory)
        analysis = load_analysis_policy(directory)
        check_ledger_file(directory)
        load_alerts_policy(directory)  # the webhook's URL, and that its secret can be read
    review = PolicyUnderReview(
        gate=policies.gate,
        profiles=dict(policies.limits.profiles),
        trust_rules=policies.limits.trust_rules,
        egress=policies.network.egress,
        runtimes=dict(policies.limits.runtimes),
        failure_levels={
            "assessment.yaml: analyzer_failure_level": policies.bandit.failure_level,
            "analysis.yaml: failure_level": analysis.failure_level,
            **{
                f"analysis.yaml: ast.rules.{rule}": analysis.ast.rules[rule].level
                for rule in ("parse-failed", "too-complex")
                if rule in analysis.ast.rules
            },
        },
    )
    problems = weakenings(review, host or host_room())
    if problems:
        raise InvalidPolicy(
            f"the policy in {directory} weakens {len(problems)} hard rule(s):\n" + "\n".join(problems)
        )
    return policies


def _refuse_hardening_keys(path: Path) -> None:
    raw: Any = read_yaml(path)
    profiles = raw.get("profiles") if isinstance(raw, dict) else None
    if not isinstance(profiles, dict):
        return  # the strict model says what is wrong
    problems = [
        f"policy file {path}: key profiles.{name}.{key}: {why}, not a policy setting: remove it"
        for name, profile in profiles.items()
        if isinstance(profile, dict)
        for key in profile
        if key in HARDENING_KEYS
        for why in (HARDENING_KEYS[key],)
    ]
    if problems:
        raise ConfigurationError("\n".join(problems))


__all__ = ["check_folder", "check_names", "check_sizes", "read_folder", "records_of", "write_folder"]
