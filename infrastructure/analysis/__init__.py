"""The analyzers that assess submitted code, and the suite that runs them all and merges verdicts.

``suite`` runs every analyzer over one submission; ``bandit``, ``semgrep`` and ``ast`` are the
three analyzers; ``policy`` reads policies/analysis.yaml (and the files it names) into the objects
they take, ``sensitive_paths`` being the compiled sensitive-path model; ``sarif`` writes findings
as SARIF; ``threat_hashes`` computes the digests of known threats (and runs as ``python -m``).

What other modules import is re-exported here, loaded on first use: importing the package loads
none of its modules, so ``python -m mai_safety.infrastructure.analysis.threat_hashes`` runs its
module once, and a caller pays only for the analyzers it asks for.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .policy import AnalysisPolicy as AnalysisPolicy, load_analysis_policy as load_analysis_policy
    from .sarif import sarif_log as sarif_log
    from .suite import AnalyzerSuite as AnalyzerSuite, build_analyzers as build_analyzers

_EXPORTED_FROM = {
    "AnalysisPolicy": ".policy",
    "load_analysis_policy": ".policy",
    "sarif_log": ".sarif",
    "AnalyzerSuite": ".suite",
    "build_analyzers": ".suite",
}

__all__ = ["AnalysisPolicy", "AnalyzerSuite", "build_analyzers", "load_analysis_policy", "sarif_log"]


def __getattr__(name: str) -> Any:
    module = _EXPORTED_FROM.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module, __name__), name)
