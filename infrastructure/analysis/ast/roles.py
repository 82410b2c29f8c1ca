"""What the analysis' objects ask of each other where their modules must not import each other: the
evaluator's one door (Evaluates), through which the walker, the loop tracker, the judges and the
evaluator's own parts reach it, and the two functions judges are handed (AnalyseNested,
OnInvocation). The objects refer to one another; their modules stay free of cycles.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Protocol

from .state import AnalysisState, WalkContext
from .values import Value

# Code a program runs, analysed in turn (tree, the program's imports) -> what that run knows: its
# hits, the names it bound (program.py).
AnalyseNested = Callable[[ast.AST, dict[str, Value]], AnalysisState]
# A call judged as made: the call node, the callee, its arguments, where it stands (judges.py).
OnInvocation = Callable[[ast.Call, Value, list[Value], dict[str, Value], WalkContext], None]


class Evaluates(Protocol):
    """What an expression's value may be (ExpressionEvaluator, evaluator.py, is the one there is)."""

    def evaluate(self, node: ast.AST | None, depth: int = 0) -> Value: ...

    def arguments(self, node: ast.Call, depth: int = 0) -> list[Value]: ...

    def name(self, name: str) -> Value: ...

    def attribute(self, base: Value, attr: str) -> Value: ...

    def call(self, func: Value, args: list[Value], kwargs: dict[str, Value], spread: list[Value]) -> Value: ...

    def binop(self, op: ast.operator, left: Value, right: Value) -> Value: ...

    def env_var(self, name: str) -> Value: ...

    def by_name(self, base: Value, name: Value, how: str) -> Value: ...
