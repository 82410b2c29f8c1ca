"""Real parts: the Docker engine, Bandit, SQLite files and a Postgres the suite starts itself."""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import docker
import psutil
import psycopg
import pytest

from mai_safety.application.reports import ExecutionReport
from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.sandbox import LABEL_MANAGED, LABEL_SUPERVISOR, gvisor_status
from mai_safety.infrastructure.sandbox.runtimes import runsc_processes
from mai_safety.infrastructure.settings import Settings

from .cli_helpers import STARTED_PIDS, policies_with, suite_policies

POSTGRES_IMAGE = os.environ.get("MAI_SAFETY_POSTGRES_IMAGE", "mai-safety/postgres:15")


@pytest.fixture(scope="session")
def docker_client() -> Iterator[docker.DockerClient]:
    client = docker.from_env()
    yield client
    # Whatever a failed test left behind goes too.
    for container in containers_of_this_run(client):
        container.remove(force=True)
    client.close()


def _of_this_run(supervisor: str) -> bool:
    """Whether a container's supervisor is this test process, one of its children, or gone: a
    live supervisor outside this process tree is another suite's run on the same engine (another
    checkout's tests), whose containers are not ours to judge or remove; so is a gone one that
    another worker of this run started (cli_helpers.StartedProcesses)."""
    try:
        _host, pid, _started = supervisor.split("/")
        if int(pid) in STARTED_PIDS:  # a CLI or a service this process ran, alive or not
            return True
        process = psutil.Process(int(pid))
    except ValueError:
        return True
    except psutil.NoSuchProcess:
        return not STARTED_PIDS.started_by_another_worker(int(pid))
    if process.pid == os.getpid():
        return True
    try:
        return any(parent.pid == os.getpid() for parent in process.parents())
    except psutil.NoSuchProcess:
        return True


def containers_of_this_run(client: docker.DockerClient) -> list:
    return [
        container
        for container in client.containers.list(all=True, filters={"label": f"{LABEL_MANAGED}=1"}, ignore_removed=True)
        if _of_this_run(container.labels.get(LABEL_SUPERVISOR, ""))
    ]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[dict[str, str]]:
    """A real Postgres in a container from the locally built image, removed at the end."""
    from testcontainers.community.postgres import PostgresContainer

    container = PostgresContainer(POSTGRES_IMAGE, username="mai", password="mai-test-password", dbname="mai", driver=None)
    container.with_command("-c fsync=off -c synchronous_commit=off")
    container.start()
    try:
        yield {
            "host": container.get_container_host_ip(),
            "port": str(container.get_exposed_port(5432)),
            "user": "mai",
            "password": "mai-test-password",
        }
    finally:
        container.stop()


@pytest.fixture
def postgres_url(postgres_server: dict[str, str]) -> Iterator[str]:
    """A fresh database per test, dropped afterwards even when the test fails."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    admin = dict(postgres_server, dbname="mai")
    with psycopg.connect(autocommit=True, **admin) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    s = postgres_server
    yield f"postgresql://{s['user']}:{s['password']}@{s['host']}:{s['port']}/{name}"
    with psycopg.connect(autocommit=True, **admin) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``postgres`` on every test that needs the suite's Postgres, so ``-m "not postgres"`` runs
    without one (the database_url fixture's Postgres case carries the mark itself)."""
    for item in items:
        if "postgres_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The ledger contract: a test taking this runs on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    return request.getfixturevalue("postgres_url")


def run_overridden(app: MaiSafety, code: bytes, **options: object) -> ExecutionReport:
    """Run code the assessor rightly holds back (a fork bomb, writes to /etc): a security officer
    overrides the gate, as production would, and the run gets the untrusted profile."""
    with acting_as("security-officer"):
        return app.run(code, confirm=True, override="sandbox test: exercising the container's limits", **options)  # type: ignore[arg-type]


def settings_for(database_url: str, policies: Path | None = None) -> Settings:
    # The suite's own home (tests/conftest.py), as the CLI subprocesses of a test see it.
    environ = {name: value for name, value in os.environ.items() if name.startswith("XDG_")}
    environ["MAI_SAFETY_POLICIES"] = str(policies or suite_policies())
    return Settings.from_environment(environ=environ, database_url=database_url)


@pytest.fixture
def app(tmp_path: Path, docker_client: docker.DockerClient) -> Iterator[MaiSafety]:
    """The application with the real sandbox, on SQLite: what runs is the same on either ledger,
    whose backends have their own suite (database_url); test_cli runs the whole path on Postgres."""
    application = bootstrap(settings_for(f"sqlite:///{tmp_path / 'ledger.sqlite'}"))
    yield application
    application.close()


#: Whether gVisor serves runs on this engine (scripts/setup.sh registers it where it started the engine).
GVISOR = gvisor_status()


def runtime_policies(tmp_path: Path, runtime: str) -> Path:
    """The shipped policies with every profile under one runtime."""
    return policies_with(
        tmp_path / f"policies-{runtime}",
        limits={f"profiles.{name}.runtime": runtime for name in ("trusted", "standard", "untrusted")},
    )


def skip_without_gvisor() -> None:
    if not GVISOR.get("available"):
        pytest.skip(f"gVisor is not available here ({GVISOR.get('reason')}): {GVISOR.get('how', '')}")


@pytest.fixture(params=["sqlite-runc", "sqlite-runsc"])
def contained_app(request: pytest.FixtureRequest, tmp_path: Path, docker_client: docker.DockerClient) -> Iterator[MaiSafety]:
    """The containment tests, once under runc and once under gVisor (runsc), on SQLite: the walls
    are the runtime's, the ledger's backends have their own suite."""
    database, runtime = request.param.split("-")
    if runtime == "runsc":
        skip_without_gvisor()
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}" if database == "sqlite" else request.getfixturevalue("postgres_url")
    application = bootstrap(settings_for(url, runtime_policies(tmp_path, runtime)))
    yield application
    application.close()


def started_event(app: MaiSafety, execution_id: str) -> dict:
    """The execution's Started event as its history gives it (what the run got: runtime, image, sizing)."""
    return next(event for event in app.history(execution_id) if event["event"] == "Started")


def runtime_of(app: MaiSafety, execution_id: str) -> str:
    """The runtime the run got, as its Started event records it."""
    return started_event(app, execution_id)["runtime"]["name"]


def gvisor_processes_of_forgotten_containers(client: docker.DockerClient) -> set[int]:
    # The processes first, then the containers: a sandbox that another worker's test starts in
    # between is listed with its container, not taken for a forgotten one.
    processes = list(runsc_processes())
    known = {container.id for container in client.containers.list(all=True, sparse=True, ignore_removed=True)}
    return {
        process.pid
        for process, command in processes
        if not any(container_id in argument for container_id in known for argument in command)
    }


@pytest.fixture(autouse=True)
def no_container_is_left_behind(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "docker_client" not in request.fixturenames:
        return
    client: docker.DockerClient = request.getfixturevalue("docker_client")
    # A service removes a run's container after answering (infrastructure/sandbox/removal.py), and
    # the engine lists a container while its removal is under way: what is gone within a few
    # seconds was not left behind; what is still there then was.
    deadline = time.monotonic() + 10
    left = containers_of_this_run(client)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = containers_of_this_run(client)
    for container in left:
        with contextlib.suppress(docker.errors.NotFound):
            container.remove(force=True)
    assert not left, f"containers left behind: {[c.short_id for c in left]}"
    # No gVisor sandbox outlives its container (a removed container's runsc exits within a moment).
    # One that is seen at every look for 5 s is; one seen once, as another worker's container was
    # being removed, was not.
    deadline = time.monotonic() + 5
    forgotten = gvisor_processes_of_forgotten_containers(client)
    while forgotten and time.monotonic() < deadline:
        time.sleep(0.1)
        forgotten &= gvisor_processes_of_forgotten_containers(client)
    assert not forgotten, "runsc processes outlived their container"
