"""The walker's loops: what each loop iterates, whether it ends, and what the rules over the whole
program need to know of it (a sweep over a folder, a fork in an endless loop).
"""

from __future__ import annotations

import ast

from . import rules
from .commands import PLACEHOLDER, normalise_path, wipe_target
from .state import AnalysisState, Loop
from .values import (
    MAX_ALTERNATIVES,
    NO_FLAGS,
    UNKNOWN,
    Alternatives,
    Instance,
    Num,
    Ref,
    Seq,
    Str,
    Unknown,
    Value,
    flags_of,
    listed_folder,
    strings_of,
)


class LoopTracker(AnalysisState):
    """What a loop runs over and how often: its bound, the folder a walk or glob sweeps, the items bound
    to its target, and the processes it iterates (the program's own or ones it found)."""

    def _bind_loop_target(self, target: ast.AST, iterated: Value) -> None:
        items = self._iterate(iterated)
        if items is None and isinstance(iterated, Alternatives):  # `for d in args.dirs` (given or the default list)
            items = [item for option in iterated.options for item in (self._iterate(option) or [])] or None
        kept = tuple(items[:MAX_ALTERNATIVES]) if items else ()
        self._bind_target(target, Alternatives(flags_of(kept) - {"sockfd", "obfname", "indirect"}, kept) if items else self._iter_value(iterated))

    def _iter_value(self, iterable: Value) -> Value:
        if isinstance(iterable, Alternatives) and iterable.options and len(iterable.options) <= 8:
            each = tuple(self._iter_value(option) for option in iterable.options)
            if all(isinstance(item, (Instance, Str, Seq)) for item in each):
                return Alternatives(iterable.flags, each)
        if isinstance(iterable, Instance) and iterable.kind == "tuple:socket.accept":
            return iterable
        if isinstance(iterable, Instance) and iterable.kind in ("os.walk", "os.fwalk") and iterable.path is not None:
            return Seq(iterable.flags, (Str(iterable.flags, iterable.path), UNKNOWN, UNKNOWN))  # (dirpath, dirnames, filenames)
        if isinstance(iterable, Instance) and iterable.kind == "os.scandir" and iterable.path is not None:
            return Instance(iterable.flags, "os.DirEntry", f"{iterable.path.rstrip('/')}/{PLACEHOLDER}")
        if isinstance(iterable, Instance) and iterable.kind == "pwd.all":
            return Instance(NO_FLAGS, "pwd.struct_passwd")
        if isinstance(iterable, Instance) and iterable.kind == "psutil.process_iter":
            return Instance(frozenset({"foreignproc"}), "psutil.Process")
        if isinstance(iterable, Instance) and iterable.kind == "psutil.Process:own#children":
            return Instance(NO_FLAGS, "psutil.Process:own")
        if isinstance(iterable, Instance) and iterable.kind == "pathlib.Path#iter":
            return Instance(iterable.flags, "pathlib.Path", iterable.path)
        return Unknown(iterable.flags - {"sockfd", "obfname", "indirect"})

    @staticmethod
    def _own_process(value: Value) -> bool:
        """A process object or pid of this program or of a child it started."""
        if isinstance(value, Alternatives):
            return bool(value.options) and all(LoopTracker._own_process(option) for option in value.options)
        if isinstance(value, Instance) and (value.kind in rules.CHILD_MAKERS or value.kind.startswith("psutil.Process:own")):
            return True
        return "ownpid" in value.flags

    @staticmethod
    def _foreign_process(value: Value | None) -> bool:
        """A process the program found rather than started (psutil's enumeration, a pid it was given)."""
        if value is None:
            return False
        if isinstance(value, Alternatives):
            return "foreignproc" in value.flags or any(LoopTracker._foreign_process(option) for option in value.options)
        if isinstance(value, Ref) and value.recv is not None and LoopTracker._foreign_process(value.recv):
            return True
        return "foreignproc" in value.flags

    def _loop_for(self, node: ast.AST, iter_node: ast.AST | None) -> Loop:
        infinite, bound, sweep, outside = False, None, None, None
        if iter_node is not None:
            value = self.evaluate(iter_node)
            items = self._iterate(value)
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
                    inner = self._loop_for(operand, operand) if isinstance(operand, ast.Call) else None
                    if inner is not None:
                        if self.pass_no == 2:
                            self.loops.remove(inner)
                        sweep, outside = sweep or inner.sweep, outside or inner.outside
            if isinstance(iter_node, ast.Call):
                func = self.evaluate(iter_node.func)
                funcs = [o for o in func.options if isinstance(o, Ref)] if isinstance(func, Alternatives) else [func]
                if funcs and isinstance(funcs[0], Ref):
                    func = funcs[0]
                qualname = func.qual if isinstance(func, Ref) else ""
                args = [self.evaluate(a) for a in iter_node.args]
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
                        elif self.paths is not None and self.paths.outside(listed_folder(text)):
                            outside = normalise_path(listed_folder(text))
        loop = Loop(node, infinite=infinite, bound=bound, sweep=sweep, outside=outside)
        self._register_loop(loop)
        return loop

    def _register_loop(self, loop: Loop) -> None:
        if self.pass_no == 2:
            self.loops.append(loop)

    def _loop_items(self, loop: Loop) -> tuple[str, list[Value]] | None:
        node = loop.node
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            items = self._iterate(self.evaluate(node.iter))
            if items is not None and len(items) <= 100_000:
                return node.target.id, items
        return None
