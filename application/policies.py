"""Policies as recorded configuration (``PolicyCommands``): which version is in force,
applying a new one (validated, hashed, diffed, recorded on the ``PolicySet`` aggregate), its
history, and following the ledger's version so that new executions are judged by it.

The folder's validation and the loading of a version into what the application uses are the
infrastructure's (``PolicyLoader``, wired by the composition root); this module only decides.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from threading import Lock
from typing import Any, Protocol

from eventsourcing.application import AggregateNotFoundError

from mai_safety.domain.access import Action, check_acting_principal_may
from mai_safety.domain.policy_set import POLICY_SET_ID, UNRECORDED, PolicyFileRecord, PolicySet

from .audit_report import PolicyChange
from .ports import Assessor
from .sizing import ExecutionPolicy


class PolicyLoader(Protocol):
    """Reads policy files for the application. ``check`` raises ConfigurationError (each line: the
    file, the key, what was expected, or the hard rule broken) and changes nothing; ``records``
    hashes them; ``load`` turns a version's files into what judges and sizes executions."""

    def check(self, files: dict[str, str]) -> None: ...

    def records(self, files: dict[str, str]) -> dict[str, PolicyFileRecord]: ...

    def load(self, version: int, files: dict[str, str]) -> tuple[ExecutionPolicy, Assessor]: ...


@dataclass(frozen=True)
class PolicyVersion:
    """A version of the policy: 0 ("unrecorded") is the shipped folder before any apply."""

    version: int
    hashes: dict[str, str]
    recorded: bool
    applied_at: str | None = None
    applied_by: str | None = None
    diff: str = ""
    files: dict[str, str] = field(default_factory=dict, repr=False)

    def to_dict(self, *, with_files: bool = False) -> dict[str, Any]:
        data = asdict(self)
        data["label"] = f"version {self.version}" if self.recorded else "version 0 (unrecorded)"
        if not with_files:
            data.pop("files")
        return data


def unified_diff(before: dict[str, str], after: dict[str, str]) -> str:
    """One unified diff over every file, added and removed ones included, in name order."""
    parts: list[str] = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if old == new:
            continue
        parts.extend(
            difflib.unified_diff(
                (old or "").splitlines(keepends=True),
                (new or "").splitlines(keepends=True),
                fromfile=f"a/{name}" if old is not None else "/dev/null",
                tofile=f"b/{name}" if new is not None else "/dev/null",
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in parts)


def changed_files(diff: str) -> list[str]:
    """The files a unified diff (``unified_diff``'s) names, each once, in order."""
    names = []
    for line in diff.splitlines():
        if line.startswith(("--- a/", "+++ b/")):
            name = line[6:]
            if name not in names:
                names.append(name)
    return names


class PolicyCommands:
    """The policy in force, as recorded configuration: ``policy`` and ``assessor`` follow the
    ledger's policy version (each command that judges code asks ``follow_policy`` first).
    ``read_shipped_policy``: what reads the shipped folder's files (version 0, read only when a
    command asks for it, not at every start); ``policy_loader``: what checks, records and loads a
    version's files (None: policies cannot be applied)."""

    def __init__(
        self,
        repository: Any,
        recorder: Any,
        save: Callable[..., Any],
        policy: ExecutionPolicy,
        assessor: Assessor,
        policy_loader: PolicyLoader | None = None,
        read_shipped_policy: Callable[[], dict[str, str]] = dict,
    ) -> None:
        self.repository = repository
        self.recorder = recorder
        self.save = save
        self.policy = policy
        self.assessor = assessor
        self.policy_loader = policy_loader
        self.read_shipped_policy = read_shipped_policy
        self._policy_lock = Lock()

    def policy_in_force(self) -> PolicyVersion:
        policy_set = self._policy_set()
        if policy_set is None:
            shipped = self.read_shipped_policy()
            records = self.policy_loader.records(shipped) if self.policy_loader else {}
            hashes = {name: record["sha256"] for name, record in records.items()}
            return PolicyVersion(UNRECORDED, hashes, recorded=False, files=dict(shipped))
        last = list(self.repository.event_store.get(POLICY_SET_ID, desc=True, limit=1))[0]
        return PolicyVersion(
            version=policy_set.policy_version,
            hashes=policy_set.hashes,
            recorded=True,
            applied_at=last.timestamp.isoformat(),
            applied_by=getattr(last, "actor", None),
            diff=last.diff,
            files={name: record["text"] for name, record in policy_set.files.items()},
        )

    def validate_policy(self, files: dict[str, str]) -> int:
        """Check ``files`` as ``apply_policy`` does (the same right), recording nothing: how many there are."""
        check_acting_principal_may(Action.APPLY_POLICY)
        self._loader().check(files)
        return len(files)

    def apply_policy(self, files: dict[str, str]) -> PolicyVersion:
        """Validate ``files`` (nothing changes if they do not), then record them as the next version."""
        check_acting_principal_may(Action.APPLY_POLICY)
        loader = self._loader()
        loader.check(files)
        in_force = self.policy_in_force()
        policy_set = self._policy_set() or PolicySet.open()
        policy_set.apply(loader.records(files), unified_diff(in_force.files, files))
        self.save(policy_set)
        return self.policy_in_force()

    def policy_history(self) -> list[PolicyVersion]:
        """Every applied version, oldest first, rebuilt from the ledger's events alone."""
        history = []
        for stored in self.repository.event_store.get(POLICY_SET_ID):
            if isinstance(stored, PolicySet.Applied):
                history.append(
                    PolicyVersion(
                        version=stored.policy_version,
                        hashes={name: record["sha256"] for name, record in sorted(stored.files.items())},
                        recorded=True,
                        applied_at=stored.timestamp.isoformat(),
                        applied_by=getattr(stored, "actor", None),
                        diff=stored.diff,
                        files={name: record["text"] for name, record in stored.files.items()},
                    )
                )
        return history

    def policy_changes(self, since: str | None = None, until: str | None = None) -> list[PolicyChange]:
        """The versions applied between ``since`` and ``until`` (ISO 8601, inclusive), for the audit report."""
        return [
            PolicyChange(version.version, version.applied_at or "", version.applied_by, changed_files(version.diff))
            for version in self.policy_history()
            if (since is None or (version.applied_at or "") >= since) and (until is None or (version.applied_at or "") <= until)
        ]

    def recorded_policy_version(self) -> int:
        """The ledger's policy version, cheaply: the policy set's last event's position in it."""
        last = self.recorder.select_events(POLICY_SET_ID, desc=True, limit=1)
        return last[0].originator_version - 1 if last else UNRECORDED  # Opened is the set's first event

    def follow_policy(self) -> None:
        """Judge new executions by the policy version the ledger holds; load it when it changed."""
        if self.policy_loader is None or self.recorded_policy_version() == self.policy.version:
            return
        with self._policy_lock:
            in_force = self.policy_in_force()
            if in_force.version != self.policy.version:
                self.policy, self.assessor = self.policy_loader.load(in_force.version, in_force.files)

    def _policy_set(self) -> PolicySet | None:
        try:
            policy_set = self.repository.get(POLICY_SET_ID)
        except AggregateNotFoundError:
            return None
        return policy_set if isinstance(policy_set, PolicySet) else None

    def _loader(self) -> PolicyLoader:
        if self.policy_loader is None:
            from .errors import ConfigurationError

            raise ConfigurationError("this application was built without a policy loader: policies cannot be applied")
        return self.policy_loader


__all__ = ["PolicyCommands", "PolicyLoader", "PolicyVersion", "changed_files", "unified_diff"]
