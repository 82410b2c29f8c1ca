"""The event topics this service writes to the ledger: what verification expects to find there."""

from __future__ import annotations

from eventsourcing.utils import get_topic

from mai_safety.domain.access import ApiToken
from mai_safety.domain.diverged_code import DivergedCode
from mai_safety.domain.execution import Execution
from mai_safety.domain.policy_set import PolicySet
from mai_safety.domain.session import Session

EXECUTION_TOPICS = frozenset(
    get_topic(cls)
    for cls in vars(Execution).values()
    if isinstance(cls, type) and issubclass(cls, Execution.Event) and cls is not Execution.Event
)
ENDING_TOPICS = frozenset(get_topic(cls) for cls in (Execution.Completed, Execution.Terminated))
#: The events that may name blobs: the endings (output, output files) and Assessed (input files).
BLOB_TOPICS = ENDING_TOPICS | {get_topic(Execution.Assessed)}
#: Grants and revocations of API tokens (domain.access) share the ledger with the executions.
ACCESS_TOPICS = frozenset(get_topic(cls) for cls in (ApiToken.TokenGranted, ApiToken.TokenRevoked))
#: The policies applied (domain.policy_set): recorded configuration on the same ledger.
POLICY_TOPICS = frozenset(get_topic(cls) for cls in (PolicySet.Opened, PolicySet.Applied))
#: Code seen diverging from its assessment (domain.diverged_code): the floor of its later verdicts.
DIVERGED_TOPICS = frozenset({get_topic(DivergedCode.Recorded)})
#: The sessions' own lifecycle (domain.session, issue #27); their cells are executions.
SESSION_TOPICS = frozenset(
    get_topic(cls)
    for cls in vars(Session).values()
    if isinstance(cls, type) and issubclass(cls, Session.Event) and cls is not Session.Event
)
#: Every event this service writes; anything else on the ledger is reported as unexpected.
LEDGER_TOPICS = EXECUTION_TOPICS | ACCESS_TOPICS | POLICY_TOPICS | DIVERGED_TOPICS | SESSION_TOPICS

__all__ = ["ACCESS_TOPICS", "BLOB_TOPICS", "DIVERGED_TOPICS", "ENDING_TOPICS", "EXECUTION_TOPICS", "LEDGER_TOPICS", "POLICY_TOPICS", "SESSION_TOPICS"]
