"""Event MACs for a ledger verifier: which events must carry one, and whether it verifies.

MACs follow the checkpoints' encodings (docs/decisions/0011): from a v2 checkpoint's
``macs_from`` on every event must carry one (checked when ``mac_valid`` is given, i.e. the verifier
holds the key); an event without one before any v2 checkpoint is from before MACs and must lie
under a v1 checkpoint, or before every event that has one. A run of consecutive forged events is
one problem with a count.
"""

from __future__ import annotations

from collections.abc import Callable

from .chain import ChainRecord, Problem, ProblemKind
from .signed_checkpoint import Checkpoint
from .verification_problems import ProblemLog

#: Says whether a record's event MAC is valid (only a holder of the service's key can say).
MacCheck = Callable[[ChainRecord], bool]


class EventMacChecks:
    """Checks each event's MAC, and each checkpoint's declaration of them, as the walk goes by."""

    def __init__(self, *, previous: Checkpoint | None, mac_valid: MacCheck | None, problems: ProblemLog) -> None:
        self._mac_valid = mac_valid
        self._problems = problems
        self._macs_from = previous.macs_from if previous is not None and previous.declares_macs else None
        self._mac_declared_by = previous.sequence if self._macs_from is not None and previous is not None else None
        self._mac_seen = False
        self._pre_mac: list[tuple[int, str, int, str]] = []  # events without a MAC, not yet under a checkpoint
        self._forged_run: list[Problem] = []
        self._forged_last = -1
        self.checked = 0
        self.unchecked = False
        #: Events without a MAC after the newest checkpoint of a ledger no v2 checkpoint has sealed
        #: yet: written by an earlier version; the next seal adopts them. (first, last, count)
        self.pre_mac_tail: tuple[int, int, int] | None = None

    @property
    def forged_run_open(self) -> bool:
        """Whether forged events were found that ``finish`` has yet to report."""
        return bool(self._forged_run)

    def check_record(self, record: ChainRecord) -> None:
        if record.mac is not None:
            self._mac_seen = True
            if self._mac_valid is None:
                self.unchecked = True
            else:
                self.checked += 1
                if not self._mac_valid(record):
                    self._forged(
                        record,
                        "forged event: its MAC does not verify: it was written by someone without the service's key, "
                        "or its position, ids or hashes were changed",
                    )
            return
        if self._macs_from is not None:
            if record.position >= self._macs_from:
                self._forged(
                    record,
                    f"forged event: it carries no MAC, but every event from position {self._macs_from} does "
                    f"(checkpoint #{self._mac_declared_by} declares it): inserted by someone without the service's key",
                )
            return
        if self._mac_seen:
            self._forged(
                record,
                "forged event: it carries no MAC, after events that do: inserted by someone without the service's key",
            )
            return
        self._pre_mac.append((record.position, record.originator_id, record.version, record.event_name))

    def check_checkpoint(self, checkpoint: Checkpoint) -> None:
        if checkpoint.declares_macs:
            if self._macs_from is None:
                self._macs_from = checkpoint.macs_from
                self._mac_declared_by = checkpoint.sequence
                for position, execution, version, event in self._pre_mac:
                    if self._macs_from is not None and position >= self._macs_from:
                        self._forged(
                            Problem(ProblemKind.FORGED_EVENT, "", position, execution, version, event),
                            f"forged event: it carries no MAC, but checkpoint #{checkpoint.sequence} declares one on every "
                            f"event from position {self._macs_from}: inserted by someone without the service's key",
                        )
                self._pre_mac.clear()
            elif checkpoint.macs_from != self._macs_from:
                self._problems.about_checkpoint(
                    checkpoint,
                    ProblemKind.CHECKPOINT_MISMATCH,
                    f"checkpoint mismatch: #{checkpoint.sequence} declares event MACs from position {checkpoint.macs_from}, "
                    f"#{self._mac_declared_by} before it from {self._macs_from}",
                )
            return
        if self._macs_from is not None:
            self._problems.about_checkpoint(
                checkpoint,
                ProblemKind.CHECKPOINT_MISMATCH,
                f"checkpoint mismatch: #{checkpoint.sequence} has the encoding from before event MACs (v1), after "
                f"#{self._mac_declared_by} declared them: written by an older mai-safety still running, or put back",
            )
            return
        # A checkpoint from before MACs covers the events without one up to its position.
        self._pre_mac = [item for item in self._pre_mac if item[0] > checkpoint.position]

    def finish(self) -> None:
        """After the walk: note the events from before MACs that no checkpoint covers yet, and
        report the last run of forged events."""
        if self._pre_mac:
            first, last = self._pre_mac[0][0], self._pre_mac[-1][0]
            self.pre_mac_tail = (first, last, len(self._pre_mac))
        self._close_forged_run()

    def _forged(self, where: ChainRecord | Problem, message: str) -> None:
        """Report a forged event; a run of consecutive ones is one problem with a count."""
        if isinstance(where, Problem):
            problem = Problem(ProblemKind.FORGED_EVENT, message, where.position, where.execution, where.version, where.event)
        else:
            problem = Problem.at(where, ProblemKind.FORGED_EVENT, message)
        position = problem.position if problem.position is not None else -2
        if self._forged_run and position == self._forged_last + 1:
            self._forged_run.append(problem)
        else:
            self._close_forged_run()
            self._forged_run = [problem]
        self._forged_last = position

    def _close_forged_run(self) -> None:
        run, self._forged_run = self._forged_run, []
        if not run:
            return
        first = run[0]
        if len(run) > 1:
            first = Problem(
                first.kind,
                f"{first.message} (and the {len(run) - 1} event(s) after it, to position {run[-1].position})",
                first.position,
                first.execution,
                first.version,
                first.event,
            )
        self._problems.add(first)
