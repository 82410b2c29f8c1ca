"""What a session's next cell is judged with: the earlier statements it can reach (issue #27,
docs/decisions/0049-a-cell-judged-with-what-it-reaches.md).

Judging each cell with every earlier cell made a cell's work, and the service's memory, grow with
the session's length. A cell depends on the earlier statements in two ways, and only those are
kept in its program:

* **by name**: the names it reads, and, again, the names those statements read, to the end; a name
  is bound by every statement that assigns, imports, defines or deletes it, by a statement-level
  method call that puts something into it (``cmds.append(x)``, as the analysis models a container
  taking what it is given), and, for the session's own functions and classes, by every call of
  them (a parameter is what its callers pass), which a definition therefore reads;
* **by what they established**: a statement that adds to what the analysis learns beyond names
  (a socket connected, a shell started, a secret read, a file written with known text, a folder
  changed to, a finding: ``AnalysisState.learned``), as the AST analysis said in the program the
  statement ran in: these are in every later program.

Where a statement may reach or bind names its syntax does not show (exec, eval, ``globals()``,
``setattr``, ``sys.modules``, ``__main__``, a star import, ...), or a cell does not parse here (the
sandbox's Python may read it), no slice can be trusted: the cell, or from that statement on every
later cell, is judged with every earlier statement, as the whole session's program.

Names are gathered without scopes (an attribute's name and a variable's are one), which only ever
keeps more. The statements kept run in the order they ran, on whole lines.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mai_safety.application.ports import CellContext
from mai_safety.domain.session import EarlierCells

from .ast import statement_lines

#: Names, and attributes, through which code reaches or binds the session's names by a name it
#: computes, or runs code that does: where they appear, no statement's syntax shows what it reaches.
_UNSEEN_NAMES = frozenset({
    "exec", "eval", "globals", "locals", "vars", "setattr", "delattr", "__import__", "__builtins__", "builtins", "__main__",
})
_UNSEEN_ATTRIBUTES = frozenset({
    "__dict__", "__globals__", "__code__", "__builtins__", "__setattr__", "modules", "import_module", "f_globals", "f_locals",
    "run_path", "run_module",
})


@dataclass(frozen=True)
class _Unit:
    """Top-level statements of one cell sharing lines (``a = 1; b = a``), as one."""

    cell: int
    first: int  # its first line in the cell
    lines: tuple[str, ...]
    binds: frozenset[str]
    reads: frozenset[str]
    parsed: bool = True  # False: a cell Python does not read here, kept whole
    unseen: bool = False  # it may reach or bind names its syntax does not show


class SlicedContext(CellContext):
    """One session's earlier cells, as statements with the names each binds and reads."""

    def __init__(self) -> None:
        self._units: list[_Unit] = []
        self._binders: dict[str, list[int]] = {}  # name -> the units binding it, in order
        self._always: set[int] = set()  # the units in every later program
        self._unseen = False  # a unit reaches names its syntax does not show: every unit is reached
        self._cells = 0

    def earlier(self, code: str) -> EarlierCells:
        return self._program_of(self._chosen(code))

    def _chosen(self, code: str) -> list[int]:
        """The units ``code`` reaches, in the order they ran."""
        reads = _reads_of(code)
        return list(range(len(self._units))) if reads is None or self._unseen else sorted(self._reached(reads))

    def _program_of(self, chosen: list[int]) -> EarlierCells:
        lines: list[str] = []
        origins: list[tuple[int, int]] = []
        for index in chosen:
            unit = self._units[index]
            lines.extend(unit.lines)
            origins.extend((unit.cell, unit.first + offset) for offset in range(len(unit.lines)))
        return EarlierCells(tuple(lines), tuple(origins))

    def add(self, code: str, acting_lines: Callable[[str], set[int] | None]) -> None:
        # What it did is told in the program it ran in, less what Python does not read here (whose
        # statements cannot be told apart: they are in every program already). An earlier statement
        # may act only now, called by this cell (a function that connects what it is handed): it is
        # kept from now on, as the cell's own acting statements are.
        chosen = [index for index in self._chosen(code) if self._units[index].parsed]
        program, first_line, _ = self._program_of(chosen).program(code)
        line_units = [index for index in chosen for _ in self._units[index].lines]
        self._cells += 1
        text = _lines_as_python_reads_them(code)
        lines = text.split("\n")
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            # It may still have run (the sandbox's Python may read what this one does not): kept whole.
            self._keep(_Unit(self._cells, 1, tuple(lines), frozenset(), frozenset(), parsed=False, unseen=True), always=True)
            return
        acting = acting_lines(program)
        cell_acting = None if acting is None else {line - first_line + 1 for line in acting if line >= first_line}
        if acting is None:
            self._always.update(chosen)
        else:
            self._always.update(line_units[line - 1] for line in acting if 0 < line < first_line)
        own = _own_names(tree)

        def bound(name: str) -> bool:
            return name in own or name in self._binders
        for first, last, statements in _groups(tree.body):
            binds: set[str] = set()
            reads: set[str] = set()
            unseen = False
            for statement in statements:
                unseen |= _names(statement, binds, reads, bound)
            always = unseen or cell_acting is None or not cell_acting.isdisjoint(range(first, last + 1))
            unit = _Unit(self._cells, first, tuple(lines[first - 1:last]), frozenset(binds), frozenset(reads), unseen=unseen)
            self._keep(unit, always)

    def _keep(self, unit: _Unit, always: bool) -> None:
        index = len(self._units)
        self._units.append(unit)
        for name in unit.binds:
            self._binders.setdefault(name, []).append(index)
        if always:
            self._always.add(index)
        self._unseen |= unit.unseen

    def _reached(self, reads: Iterable[str]) -> set[int]:
        chosen = set(self._always)
        todo = list(reads)
        for index in self._always:
            todo.extend(self._units[index].reads)
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for index in self._binders.get(name, ()):
                if index not in chosen:
                    chosen.add(index)
                    todo.extend(self._units[index].reads)
        return chosen


def _lines_as_python_reads_them(code: str) -> str:
    """Python's tokenizer ends a line at \\r\\n, \\r or \\n, and nowhere else (str.splitlines would
    also split at characters it does not, shifting every line after them)."""
    return code.replace("\r\n", "\n").replace("\r", "\n")


def _groups(body: list[ast.stmt]) -> list[tuple[int, int, list[ast.stmt]]]:
    """The top-level statements as whole lines: statements sharing a line are one group."""
    groups: list[tuple[int, int, list[ast.stmt]]] = []
    for statement in body:
        first, last = statement_lines(statement)
        if groups and first <= groups[-1][1]:
            start, end, members = groups[-1]
            groups[-1] = (start, max(end, last), [*members, statement])
        else:
            groups.append((first, last, [statement]))
    return groups


def _own_names(tree: ast.AST) -> set[str]:
    """The names a cell defines as functions or classes (its own calls of them bind them too)."""
    return {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def _base(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _names(statement: ast.stmt, binds: set[str], reads: set[str], bound: Callable[[str], bool]) -> bool:
    """Adds the names ``statement`` binds and reads; whether it may reach or bind names its syntax
    does not show (_UNSEEN_NAMES, _UNSEEN_ATTRIBUTES, a star import).
    ``bound``: whether the session binds a name (a call of one binds it: its function's parameters)."""
    unseen = False
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        if isinstance(call.func, ast.Attribute) and (call.args or call.keywords):
            receiver = _base(call.func.value)
            if receiver is not None:
                binds.add(receiver)  # the container takes what it is given
    for node in ast.walk(statement):
        if isinstance(node, ast.AugAssign):
            base = _base(node.target)
            if base is not None:
                reads.add(base)  # `x += 1` reads x
        if isinstance(node, ast.Name):
            (reads if isinstance(node.ctx, ast.Load) else binds).add(node.id)
        elif isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Load):
                reads.add(node.attr)
            else:
                binds.add(node.attr)
                base = _base(node.value)
                if base is not None:
                    binds.add(base)
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            base = _base(node.value)
            if base is not None:
                binds.add(base)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    unseen = True
                binds.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            binds.add(node.name)
            reads.add(node.name)  # its callers, who say what its parameters are
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            binds.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            binds.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            binds.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            binds.add(node.rest)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and bound(node.func.id):
            binds.add(node.func.id)  # a call says what the function's parameters are
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            reads.add(node.value)  # getattr(m, "name"), globals()["name"]
        if isinstance(node, ast.Name) and node.id in _UNSEEN_NAMES or isinstance(node, ast.Attribute) and node.attr in _UNSEEN_ATTRIBUTES:
            unseen = True
        elif isinstance(node, ast.alias) and node.name.split(".")[-1] in _UNSEEN_NAMES | _UNSEEN_ATTRIBUTES:
            unseen = True  # import builtins, from importlib import import_module, from sys import modules
    return unseen


def _reads_of(code: str) -> set[str] | None:
    """The names a new cell reads; None if it may reach names its syntax does not show, or does not
    parse here (then it reaches every earlier statement)."""
    text = _lines_as_python_reads_them(code)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    binds: set[str] = set()
    reads: set[str] = set()
    unseen = False
    for statement in tree.body:
        unseen |= _names(statement, binds, reads, lambda name: False)
    return None if unseen else reads  # what it only binds, it does not read: the earlier bindings of those names are not its context
