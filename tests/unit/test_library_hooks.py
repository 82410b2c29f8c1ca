"""Where the project meets the libraries it builds on (docs/decisions/0037): every method of theirs
that we override still has the signature it had when the suite was run against it, and no run of
six lines stands in both our source and the installed eventsourcing. An upgrade that changes a
method we override fails here, naming it, instead of drifting silently."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import pkgutil
import sys
from importlib.metadata import version
from collections.abc import Iterator
from pathlib import Path

import eventsourcing

ROOT = Path(__file__).resolve().parents[2]
#: The project's source, as the architecture checks read it.
SOURCE_FOLDERS = ("domain", "application", "infrastructure", "client", "ledger")
#: Libraries whose classes we subclass at a hook.
LIBRARIES = ("eventsourcing", "psycopg_pool")
#: Not imported: the payload runs inside the sandbox, ``__main__`` runs the CLI.
NOT_IMPORTED = ("mai_safety.infrastructure.sandbox.payload",)
WINDOW = 6
#: The special methods whose overrides count (the others are Python's protocol, not the library's).
DUNDERS = ("__init__", "__enter__", "__exit__")

#: Every library method we override, with its signature in the version the suite was run against
#: (eventsourcing 9.5.6, psycopg_pool 3.3.3). When the library changes one, read its new code, adapt
#: our override, then record the new signature here.
EXPECTED = {
    "eventsourcing.application.Application.__init__": "(self, env: 'EnvType | None' = None) -> 'None'",
    "eventsourcing.application.Application.close": "(self) -> 'None'",
    "eventsourcing.application.Application.construct_factory": "(self, env: 'Environment') -> 'InfrastructureFactory'",
    "eventsourcing.domain.CanMutateAggregate.apply": "(self, aggregate: 'Any') -> 'None'",
    "eventsourcing.persistence.ConnectionPool.close": "(self) -> 'None'",
    "eventsourcing.persistence.ConnectionPool.get_connection": (
        "(self, timeout: 'float | None' = None, *, is_writer: 'bool | None' = None) -> 'TConnection'"
    ),
    "eventsourcing.persistence.ConnectionPool.put_connection": "(self, conn: 'TConnection') -> 'None'",
    "eventsourcing.persistence.TrackingRecorder.insert_tracking": "(self, tracking: 'Tracking') -> 'None'",
    "eventsourcing.persistence.TrackingRecorder.max_tracking_id": "(self, application_name: 'str') -> 'int | None'",
    "eventsourcing.postgres.BasePostgresFactory.__init__": "(self, env: 'Environment | EnvType | None')",
    "eventsourcing.postgres.PostgresApplicationRecorder.__init__": (
        "(self, datastore: 'PostgresDatastore', *, events_table_name: 'str' = 'stored_events')"
    ),
    "eventsourcing.postgres.PostgresFactory.application_recorder": "(self) -> 'ApplicationRecorder'",
    "eventsourcing.postgres.PostgresApplicationRecorder.insert_events": (
        "(self, stored_events: 'Sequence[StoredEvent]', **kwargs: 'Any') -> 'Sequence[int] | None'"
    ),
    "eventsourcing.postgres.PostgresRecorder.create_table": "(self) -> 'None'",
    "eventsourcing.postgres.PostgresApplicationRecorder._insert_stored_events": (
        "(self, curs: 'Cursor[DictRow]', stored_events: 'Sequence[StoredEvent]', **kwargs: 'Any') -> 'None'"
    ),
    "eventsourcing.postgres.PostgresTrackingRecorder.__init__": (
        "(self, datastore: 'PostgresDatastore', *, tracking_table_name: 'str' = 'notification_tracking', "
        "**kwargs: 'Any')"
    ),
    "eventsourcing.postgres.PostgresTrackingRecorder.create_table": "(self) -> 'None'",
    "eventsourcing.sqlite.SQLiteFactory.application_recorder": "(self) -> 'ApplicationRecorder'",
    "eventsourcing.sqlite.SQLiteAggregateRecorder.insert_events": (
        "(self, stored_events: 'Sequence[StoredEvent]', **kwargs: 'Any') -> 'Sequence[int] | None'"
    ),
    "eventsourcing.sqlite.SQLiteApplicationRecorder.__init__": (
        "(self, datastore: 'SQLiteDatastore', events_table_name: 'str' = 'stored_events')"
    ),
    "eventsourcing.sqlite.SQLiteApplicationRecorder._insert_events": (
        "(self, c: 'SQLiteCursor', stored_events: 'Sequence[StoredEvent]', **_: 'Any') -> 'Sequence[int] | None'"
    ),
    "eventsourcing.sqlite.SQLiteApplicationRecorder.construct_create_table_statements": "(self) -> 'list[str]'",
    "eventsourcing.sqlite.SQLiteApplicationRecorder.select_notifications": (
        "(self, start: 'int | None', limit: 'int', stop: 'int | None' = None, topics: 'Sequence[str]' = (), *, "
        "inclusive_of_start: 'bool' = True) -> 'Sequence[Notification]'"
    ),
    "eventsourcing.sqlite.SQLiteConnection.transaction": "(self, *, commit: 'bool') -> 'Iterator[SQLiteCursor]'",
    "eventsourcing.sqlite.SQLiteConnectionPool._create_connection": "(self) -> 'SQLiteConnection'",
    "eventsourcing.sqlite.SQLiteCursor.__init__": "(self, sqlite_cursor: 'sqlite3.Cursor')",
    "eventsourcing.sqlite.SQLiteFactory.__init__": "(self, env: 'Environment | EnvType | None')",
    "eventsourcing.sqlite.SQLiteRecorder._create_table": "(self, c: 'SQLiteCursor') -> 'None'",
    "eventsourcing.sqlite.SQLiteTrackingRecorder.__init__": "(self, datastore: 'SQLiteDatastore', **kwargs: 'Any')",
    "eventsourcing.sqlite.SQLiteTrackingRecorder.construct_create_table_statements": "(self) -> 'list[str]'",
    "eventsourcing.sqlite.SQLiteTransaction.__enter__": "(self) -> 'SQLiteCursor'",
    "psycopg_pool.pool.ConnectionPool.connection": "(self, timeout: 'float | None' = None) -> 'Iterator[CT]'",
    "psycopg_pool.pool.ConnectionPool.getconn": "(self, timeout: 'float | None' = None) -> 'CT'",
}


def import_the_project() -> None:
    """Every module of ours, so that every subclass of a library class exists."""
    for top in SOURCE_FOLDERS:
        try:
            package = importlib.import_module(f"mai_safety.{top}")
        except ModuleNotFoundError:
            continue
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not info.name.startswith(NOT_IMPORTED) and not info.name.endswith("__main__"):
                importlib.import_module(info.name)


def is_library(cls: type) -> bool:
    return cls.__module__.split(".")[0] in LIBRARIES


def subclasses(cls: type) -> Iterator[type]:
    for sub in type.__subclasses__(cls):
        yield sub
        yield from subclasses(sub)


def our_subclasses_of_library_classes() -> set[type]:
    import_the_project()
    found: set[type] = set()
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").split(".")[0] not in LIBRARIES:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, type) and is_library(value):
                found.update(sub for sub in subclasses(value) if sub.__module__.startswith("mai_safety."))
    return found


def function_of(attribute: object) -> object | None:
    """The function behind a method, class method or static method; None for anything else."""
    if isinstance(attribute, (classmethod, staticmethod)):
        attribute = attribute.__func__
    return attribute if inspect.isfunction(attribute) else None


def is_ours(function: object | None) -> bool:
    """Written in our source (not made by a dataclass or the library's metaclass)."""
    code = getattr(inspect.unwrap(function), "__code__", None) if callable(function) else None
    return code is not None and Path(code.co_filename).is_file() and Path(code.co_filename).resolve().is_relative_to(ROOT)


def overridden_library_methods() -> dict[str, str]:
    """``module.Class.name`` of each library method one of our classes defines again (the class
    itself or a mixin of ours before the library in its MRO), with the library's signature of it,
    found by walking our subclasses of the libraries' classes."""
    methods: dict[str, str] = {}
    for cls in our_subclasses_of_library_classes():
        mro = cls.__mro__
        for at, ours in enumerate(mro):
            if is_library(ours):
                continue
            for name, attribute in vars(ours).items():
                if not is_ours(function_of(attribute)) or (name.startswith("__") and name not in DUNDERS):
                    continue
                base = next((base for base in mro[at + 1 :] if is_library(base) and name in vars(base)), None)
                library_function = function_of(vars(base)[name]) if base is not None else None
                if base is not None and library_function is not None:
                    methods[f"{base.__module__}.{base.__qualname__}.{name}"] = str(inspect.signature(library_function))  # type: ignore[arg-type]
    return methods


def test_every_library_method_we_override_keeps_the_signature_the_suite_was_run_against() -> None:
    found = overridden_library_methods()
    changed = {name: (EXPECTED[name], found[name]) for name in found.keys() & EXPECTED.keys() if found[name] != EXPECTED[name]}
    assert not changed, f"the library changed methods we override (read them, adapt ours, record the new signature): {changed}"
    unrecorded = {name: found[name] for name in found.keys() - EXPECTED.keys()}
    assert not unrecorded, f"overrides of library methods not recorded in EXPECTED (add them): {unrecorded}"


def test_every_recorded_override_is_still_one_and_still_in_the_library() -> None:
    found = overridden_library_methods()
    assert not EXPECTED.keys() - found.keys(), f"recorded but no longer overridden, or gone from the library: {EXPECTED.keys() - found.keys()}"


def normalised(path: Path) -> list[tuple[int, str]]:
    """The file's lines without white space, skipping blank lines, comments and imports (a
    parenthesised import's continuation lines too), each with its line number."""
    kept: list[tuple[int, str]] = []
    in_import = False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if in_import:
            in_import = ")" not in line
            continue
        if not line or line.startswith("#"):
            continue
        if line.startswith("import ") or (line.startswith("from ") and " import " in line):
            in_import = line.endswith("(")
            continue
        kept.append((number, "".join(line.split())))
    return kept


def windows(path: Path) -> Iterator[tuple[int, str]]:
    lines = normalised(path)
    for start in range(len(lines) - WINDOW + 1):
        text = "\n".join(line for _, line in lines[start : start + WINDOW])
        yield lines[start][0], hashlib.sha256(text.encode()).hexdigest()


def test_the_normalisation_sees_a_copy_through_white_space_comments_and_imports(tmp_path: Path) -> None:
    library = tmp_path / "library.py"
    library.write_text("def f(a, b):\n    x = a + b\n    y = x * 2\n    if y:\n        return y\n    return x\n")
    copy = tmp_path / "copy.py"
    copy.write_text("import os\ndef  f(a,  b):\n    # ours\n    x = a + b\n\n    y = x * 2\n    if y:\n        return y\n    return x\n")
    assert [digest for _, digest in windows(copy)] == [digest for _, digest in windows(library)]


def test_no_run_of_six_lines_stands_in_both_our_source_and_the_installed_eventsourcing() -> None:
    library_root = Path(eventsourcing.__file__).parent
    library = {digest: (path, number) for path in library_root.rglob("*.py") for number, digest in windows(path)}
    copies = [
        f"{path.relative_to(ROOT)}:{number} is {library[digest][0].relative_to(library_root.parent)}:{library[digest][1]}"
        for folder in SOURCE_FOLDERS
        if (ROOT / folder).is_dir()
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, digest in windows(path)
        if digest in library
    ]
    assert not copies, "six lines or more copied from eventsourcing (subclass at a hook instead):\n" + "\n".join(copies)


def test_eventsourcing_is_pinned_to_the_minor_version_the_suite_was_run_against() -> None:
    assert '"eventsourcing>=9.5.6,<9.6"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert version("eventsourcing").startswith("9.5.")
