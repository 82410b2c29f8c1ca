"""How an analyzer that bounds its own time says it ran out of it (suite.SelfBoundingAnalyzer)."""

from __future__ import annotations


class AnalysisOverran(BaseException):
    """A self-bounding analyzer passed its deadline (the suite rates that as a timeout). A
    BaseException, as the end of a run must be: an analyzer's ``except Exception`` around one
    step (a decoder that fails on its input) must not swallow it and carry on."""
