"""Reading the policy files: ``files.py`` is the one reader every policy file goes through (YAML in,
a validated pydantic model out, or one ConfigurationError naming the file, the key and what was
expected); ``execution.py`` loads the files that judge and size executions (assessment.yaml,
limits.yaml, gate.yaml, network.yaml). The analyzers' and the ledger's own files are loaded beside
their users (``analysis/policy.py``, ``ledger/policy.py``), through the same reader."""

from .execution import BanditPolicy, LimitsPolicy, NetworkPolicy, Policies, PoolPolicy, Sampling, load_policies
from .files import load, read_yaml, validate

__all__ = [
    "BanditPolicy",
    "LimitsPolicy",
    "NetworkPolicy",
    "Policies",
    "PoolPolicy",
    "Sampling",
    "load",
    "load_policies",
    "read_yaml",
    "validate",
]
