"""The walker's loops: what each loop iterates, whether it ends, and what the rules over the whole
program need to know of it (a sweep over a folder, a fork in an endless loop).
"""

from __future__ import annotations

import ast

from . import rules
from .commands import PLACEHOLDER, normalise_path, wipe_target
from .roles import Evaluates
from .state import AnalysisState, Loop
from .values import (
    UNKNOWN,
    Alternatives,
    Num,
    Ref,
    Value,
    iterate,
    listed_folder,
    strings_of,
)


class LoopTracker:
    """What a loop runs over and how often: its bound, the folder a walk or glob sweeps, the items bound
    to its target. The walker asks it for each loop; in the second pass it keeps them in the state for
    the rules over the whole program."""

    def __init__(self, state: AnalysisState, evaluator: Evaluates) -> None:
        self.state = state
        self.evaluator = evaluator

    def loop_for(self, node: ast.AST, iter_node: ast.AST | None) -> Loop:
        infinite, bound, sweep, outside = False, None, None, None
        if iter_node is not None:
            value = self.evaluator.evaluate(iter_node)
            items = iterate(value)
            if items is not None and "sampled" not in value.flags:
                bound = len(items)
            while isinstance(iter_node, ast.Call) and iter_node.args and isinstance(iter_node.func, ast.Name) and \
                    iter_node.func.id in ("sorted", "list", "reversed", "enumerate", "tuple", "set"):
                iter_node = iter_node.args[0]  # sorted(base.rglob("*")): the walk inside
            if isinstance(iter_node, ast.BinOp) and isinstance(iter_node.op, ast.Add):
                # glob(a) + glob(b): the walks on either side
                operands = [iter_node.left, iter_node.right]
                while isinstance(operands[0], ast.BinOp) and isinstance(operands[0].op, ast.Add) and len(operands) < 16:
                    operands[0:1] = [operands[0].left, operands[0].right]
                for operand in operands:
                    inner = self.loop_for(operand, operand) if isinstance(operand, ast.Call) else None
                    if inner is not None:
                        if self.state.pass_no == 2:
                            self.state.loops.remove(inner)
                        sweep, outside = sweep or inner.sweep, outside or inner.outside
            if isinstance(iter_node, ast.Call):
                func = self.evaluator.evaluate(iter_node.func)
                funcs = [o for o in func.options if isinstance(o, Ref)] if isinstance(func, Alternatives) else [func]
                if funcs and isinstance(funcs[0], Ref):
                    func = funcs[0]
                qualname = func.qual if isinstance(func, Ref) else ""
                args = [self.evaluator.evaluate(a) for a in iter_node.args]
                targets: list[Value] = []
                if qualname in rules.SWEEPS:  # `self.root.rglob` where self.root may be several paths: every one of them
                    for option in funcs:
                        if isinstance(option, Ref) and option.qual == qualname:
                            targets.append(option.recv if option.recv is not None else (args[0] if args else UNKNOWN))
                if qualname == "builtins.range" and args and all(isinstance(a, Num) and isinstance(a.value, int) for a in args):
                    bound = len(range(*(a.value for a in args)))  # type: ignore[union-attr]
                elif qualname in ("itertools.count", "itertools.cycle") or (qualname == "itertools.repeat" and len(args) < 2) or (
                    qualname == "builtins.iter" and len(args) == 2
                ):
                    infinite = True
                elif qualname in rules.SWEEPS:
                    for text in [text for target in targets for text in strings_of(target)][:32]:
                        if not text.replace(PLACEHOLDER, "").strip("*"):
                            continue
                        if wipe_target(text.replace(PLACEHOLDER, "").rstrip("*") or "/") or wipe_target(text.split("*")[0] or "/"):
                            sweep = normalise_path(text)
                        elif self.state.paths is not None and self.state.paths.outside(listed_folder(text)):
                            outside = normalise_path(listed_folder(text))
        loop = Loop(node, infinite=infinite, bound=bound, sweep=sweep, outside=outside)
        self.register_loop(loop)
        return loop

    def register_loop(self, loop: Loop) -> None:
        if self.state.pass_no == 2:
            self.state.loops.append(loop)

    def loop_items(self, loop: Loop) -> tuple[str, list[Value]] | None:
        node = loop.node
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            items = iterate(self.evaluator.evaluate(node.iter))
            if items is not None and len(items) <= 100_000:
                return node.target.id, items
        return None
