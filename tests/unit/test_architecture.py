"""The shape the code keeps (issue #26): no import cycle among the project's modules, no function over
80 lines, no class over 400 lines counted with the project's own base classes (a class assembled from
mixins is as large as all of them together). Read from the source with ast: no import, no I/O beyond
reading the files."""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "application", "infrastructure", "client", "ledger")
MAX_FUNCTION_LINES = 80
MAX_CLASS_LINES = 400


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def _imported(name: str, tree: ast.Module) -> Iterator[str]:
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = (node.module or "").removeprefix("mai_safety.")
            submodules = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in MODULES]
            yield from submodules or [target]
        elif isinstance(node, ast.Import):
            yield from (alias.name.removeprefix("mai_safety.") for alias in node.names)


def _import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for name, tree in TREES.items():
        graph[name] |= {target for target in _imported(name, tree) if target in MODULES and target != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(MODULES):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_among_the_projects_modules() -> None:
    assert _cycles(_import_graph()) == []


def test_no_function_is_longer_than_80_lines() -> None:
    long = [
        f"{MODULES[name].relative_to(ROOT)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for name, tree in TREES.items()
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert long == []


def _bases(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(base).split("[")[0].rpartition(".")[2] for base in node.bases]


def test_no_class_is_longer_than_400_lines_counted_with_its_own_mixins() -> None:
    classes: dict[str, tuple[int, list[str], str]] = {}
    for name, tree in TREES.items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                classes.setdefault(node.name, (size, _bases(node), name))

    def counted(name: str, seen: set[str]) -> int:
        if name in seen or name not in classes:
            return 0
        seen.add(name)
        size, bases, _ = classes[name]
        return size + sum(counted(base, seen) for base in bases)

    large = {
        f"{classes[name][2]}.{name}": total
        for name in classes
        if (total := counted(name, set())) > MAX_CLASS_LINES
    }
    assert large == {}
