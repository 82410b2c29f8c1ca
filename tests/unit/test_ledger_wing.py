"""The ledger's wing behind one door (docs/decisions/0036): the execution side imports it only
through ``mai_safety.ledger``; each backend's factory builds the ledger's parts; the library's own
``Application.save`` is all an application needs (no keyword of ours rides through it); the
composition root builds the application whole; the wing's modules form no import cycle."""

from __future__ import annotations

import ast
import sys
import uuid
from collections import defaultdict
from pathlib import Path

from eventsourcing.application import Application
from eventsourcing.utils import Environment

from mai_safety.application.executions import MaiSafety
from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.ledger import (
    EVENTS_TABLE,
    CheckpointRule,
    LedgerPolicy,
    LedgerWiring,
    ProcessWorkLock,
    blob_store_of,
    ledger_parts,
    open_ledger,
    work_lock_of,
)

from .fakes import FakeAssessor, FakeSandbox
from .test_checkpoint_audit import GATE, PROFILE, FakeKeyStore

ROOT = Path(__file__).resolve().parents[2]
EXECUTION_SIDE = ("domain", "application", "infrastructure")
WING = "mai_safety.ledger"


def _sqlite_env() -> dict[str, str]:
    return {"PERSISTENCE_MODULE": f"{WING}.infrastructure.sqlite", "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    name = ".".join(("mai_safety", *parts))
    return name.removesuffix(".__init__")


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """Each import of a module of ours in ``path``: line, absolute module, names imported."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, target, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, []) for alias in node.names)
    return [entry for entry in found if entry[1].startswith("mai_safety")]


def _sources(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def test_the_execution_side_imports_the_ledger_only_through_its_door() -> None:
    side_doors = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for path in _sources(*EXECUTION_SIDE)
        for line, target, names in _imports(path)
        if target.startswith(WING + ".") or (target == WING and any(f"{WING}.{name}" in _wing_modules() for name in names))
    ]
    assert side_doors == [], "the execution side reaches into the ledger's wing past its door:\n" + "\n".join(side_doors)
    # And the wing is there at all: its door names what the execution side uses.
    assert (ROOT / "ledger" / "__init__.py").read_text().count("def open_ledger") == 1


def _wing_modules() -> set[str]:
    return {_module_name(path) for path in _sources("ledger")}


def test_the_wing_imports_nothing_of_the_execution_sides_commands_or_composition() -> None:
    """The wing may use the execution side's vocabulary (errors, reports, topics), never its
    application object, its composition root or its settings: those import the door."""
    reaching = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for path in _sources("ledger")
        for line, target, _ in _imports(path)
        if target in ("mai_safety.application.executions", "mai_safety.infrastructure.bootstrap", "mai_safety.infrastructure.settings")
    ]
    assert reaching == []


def test_the_wings_modules_form_no_import_cycle() -> None:
    modules = {_module_name(path): path for path in _sources(*EXECUTION_SIDE, "ledger", "client")}
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        for _, target, names in _imports(path):
            found = [f"{target}.{imported}" for imported in names if f"{target}.{imported}" in modules] or [target]
            graph[name].update(candidate for candidate in found if candidate in modules and candidate != name)
    cycles = [component for component in _components(graph, modules) if len(component) > 1 and any(m.startswith(WING) for m in component)]
    assert cycles == []


def _components(graph: dict[str, set[str]], nodes: dict[str, Path]) -> list[list[str]]:
    """Strongly connected components (Tarjan)."""
    sys.setrecursionlimit(10_000)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in graph[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            found.append(sorted(component))

    for node in nodes:
        if node not in index:
            visit(node)
    return found


def test_the_librarys_own_save_seals_an_ending_where_the_policy_seals_endings_at_once() -> None:
    """No keyword of ours rides through ``insert_events``: the sealer reads the events' topics."""
    assert "save" not in vars(MaiSafety)  # the application saves as eventsourcing saves
    policy = LedgerPolicy(CheckpointRule(1000, 3600), FakeKeyStore())
    app = MaiSafety(assessor=FakeAssessor(), sandbox=FakeSandbox(), policy=GATE, env=_sqlite_env(), ledger=policy)
    try:
        submission = Submission.from_bytes(b"print(1)\n", Provenance.MAI, 1024)
        execution = Execution.assess(submission, Assessment(RiskLevel.LOW, analyzers=("bandit",)))
        Application.save(app, execution)
        execution.start(container_id="c1", image="mai-safety/sandbox:1", limits=PROFILE, trust=TrustLevel.STANDARD)
        Application.save(app, execution)
        first = app.audit.ledger().head()
        assert first.checkpoint is not None and first.checkpoint.position == 1  # the every-N rule's first seal only
        execution.complete({"exit_code": 0, "stdout": "1\n", "stderr": "", "duration_s": 0.01})
        Application.save(app, execution)
        head = app.audit.ledger().head()
        assert head.position == 3 and head.checkpoint is not None
        assert (head.checkpoint.position, head.checkpoint.reason) == (3, "execution ended")
    finally:
        app.close()


def test_each_backends_factory_builds_the_ledgers_parts() -> None:
    policy = LedgerPolicy(CheckpointRule(1000, 3600), FakeKeyStore())
    factory = open_ledger(Environment(MaiSafety.name, _sqlite_env()), LedgerWiring(policy))
    try:
        parts = ledger_parts(factory)
        assert parts is not None
        recorder = factory.application_recorder()
        assert parts.built_ledger() is recorder and parts.seals is not None and parts.seals.sealer is recorder._sealer  # type: ignore[attr-defined]
        store = blob_store_of(factory)
        assert store is not None and store.get(store.put(b"kept"), 16) == b"kept"
        assert isinstance(work_lock_of(factory), ProcessWorkLock)  # an in-memory ledger: one process
        assert parts.identity() is None  # an empty ledger has no identity yet
    finally:
        factory.close()
    # Another event store (the library's own) has none of the ledger's parts.
    plain = open_ledger(Environment(MaiSafety.name, {"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    assert ledger_parts(plain) is None and blob_store_of(plain) is None


def test_the_wing_names_the_events_table_as_the_library_names_the_applications() -> None:
    assert EVENTS_TABLE == f"{MaiSafety.name.lower()}_events"


def _function(path: Path, name: str) -> ast.FunctionDef:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise AssertionError(f"no function {name} in {path}")


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def test_the_composition_root_builds_the_application_whole_and_nobody_rewires_it() -> None:
    """bootstrap builds the application with everything it needs (the ledger's factory, the
    service's roles and live output), and neither it nor the server changes it afterwards."""
    changes = []
    for path, function, builders in (
        (ROOT / "infrastructure" / "bootstrap.py", "_bootstrap", {"MaiSafety"}),
        (ROOT / "infrastructure" / "http" / "server.py", "_serve", {"bootstrap"}),
    ):
        built: set[str] = set()
        for node in ast.walk(_function(path, function)):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name):
                if node.value.func.id in builders:
                    built.update(target.id for target in node.targets if isinstance(target, ast.Name))
        assert built, f"{function} builds no application"
        for node in ast.walk(_function(path, function)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            changes += [
                f"{path.name}:{node.lineno} sets {ast.unparse(target)}"
                for target in targets
                if isinstance(target, (ast.Attribute, ast.Subscript)) and _root(target) in built
            ]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("use_"):
                if _root(node.func) in built:
                    changes.append(f"{path.name}:{node.lineno} calls {ast.unparse(node.func)}")
    assert changes == []


def test_the_library_methods_the_wing_overrides_keep_the_signatures_it_was_written_against() -> None:
    """The wing's narrow overrides of eventsourcing (decision 0036): a release that changed one of
    these is read before the wing is trusted on it."""
    import inspect

    from eventsourcing.persistence import ApplicationRecorder, InfrastructureFactory
    from eventsourcing.postgres import PostgresFactory
    from eventsourcing.sqlite import SQLiteFactory

    expected = {
        Application.construct_factory: "(self, env: 'Environment') -> 'InfrastructureFactory'",
        InfrastructureFactory.application_recorder: "(self) -> 'ApplicationRecorder'",
        SQLiteFactory.application_recorder: "(self) -> 'ApplicationRecorder'",
        PostgresFactory.application_recorder: "(self) -> 'ApplicationRecorder'",
        SQLiteFactory.__init__: "(self, env: 'Environment | EnvType | None')",
        PostgresFactory.__init__: "(self, env: 'Environment | EnvType | None')",
        ApplicationRecorder.insert_events: "(self, stored_events: 'Sequence[StoredEvent]', **kwargs: 'Any') -> 'Sequence[int] | None'",
    }
    changed = {method.__qualname__: str(inspect.signature(method)) for method, was in expected.items() if str(inspect.signature(method)) != was}
    assert changed == {}


def test_an_operators_environment_naming_the_postgres_ledger_by_its_old_module_still_selects_postgres() -> None:
    from mai_safety.infrastructure.settings import Settings, choose_store
    from mai_safety.ledger import POSTGRES_MODULE

    environ = {"PERSISTENCE_MODULE": "mai_safety.infrastructure.ledger.postgres", "POSTGRES_DBNAME": "ledger"}
    store = choose_store(Settings.from_environment(environ={}), environ)
    assert store.kind == "postgres" and store.env["PERSISTENCE_MODULE"] == POSTGRES_MODULE
