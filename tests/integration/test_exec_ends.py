"""The engine's event stream (infrastructure/sandbox/engine_events.py) on the real engine: the
announced ends of commands, which a run's exit status is read from instead of an exec_inspect, and
when they are not trusted; and the room count learning another supervisor's container as it starts."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import docker
import pytest

from mai_safety.infrastructure.sandbox.capture import close_attached
from mai_safety.infrastructure.sandbox.containers import LABEL_MANAGED, LABEL_SUPERVISOR, Engine
from mai_safety.infrastructure.sandbox.admission import RoomCount
from mai_safety.infrastructure.sandbox.engine_events import EngineEvents, ExecEnds
from mai_safety.infrastructure.sandbox.removal import Removals
from mai_safety.infrastructure.sandbox.supervisors import supervisor_label

IMAGE = "mai-safety/sandbox:1"


@pytest.fixture
def idle(docker_client: docker.DockerClient) -> Iterator[Any]:
    container = docker_client.containers.run(
        IMAGE, ["sleep", "120"], detach=True, network_disabled=True,
        labels={LABEL_MANAGED: "1", LABEL_SUPERVISOR: supervisor_label()},
    )
    try:
        yield container
    finally:
        container.remove(force=True)


@pytest.fixture
def events() -> Iterator[EngineEvents]:
    stream = EngineEvents(Engine.streaming_client)
    try:
        yield stream
    finally:
        stream.close()


@pytest.fixture
def ends(events: EngineEvents) -> ExecEnds:
    return ExecEnds(events)


def _connected(events: EngineEvents) -> None:
    """Wait until the stream is connected: an exec that begins after that cannot go unseen."""
    deadline = time.monotonic() + 10
    while events.connected_since() is None:
        assert time.monotonic() < deadline, "the engine's event stream did not connect"
        time.sleep(0.01)


def _run(client: docker.DockerClient, container: Any, command: list[str]) -> str:
    """Start a command by exec and read its output to its end, as a run's supervision does."""
    exec_id = client.api.exec_create(container.id, command)["Id"]
    attached = client.api.exec_start(exec_id, socket=True)
    try:
        while attached._sock.recv(65536):
            pass
    finally:
        close_attached(attached)
    return exec_id


def test_a_command_s_exit_status_is_read_from_the_engine_s_announcement(
    docker_client: docker.DockerClient, idle: Any, events: EngineEvents, ends: ExecEnds
) -> None:
    events.start()
    _connected(events)
    for status in (0, 7, 137):
        began = time.monotonic()
        exec_id = _run(docker_client, idle, ["sh", "-c", f"exit {status}" if status != 137 else "kill -9 $$"])
        assert ends.exit_code(exec_id, began) == status
        assert ends.exit_code(exec_id, began) is None, "each status is given once"


def test_a_command_that_began_before_the_stream_connected_is_asked_of_the_engine_instead(
    docker_client: docker.DockerClient, idle: Any, events: EngineEvents, ends: ExecEnds
) -> None:
    began = time.monotonic()
    exec_id = _run(docker_client, idle, ["sh", "-c", "exit 3"])
    events.start()
    _connected(events)
    assert ends.exit_code(exec_id, began) is None  # its end may have come before the stream: not trusted
    assert docker_client.api.exec_inspect(exec_id)["ExitCode"] == 3


def test_nothing_is_answered_once_closed_or_for_a_command_it_never_saw(
    docker_client: docker.DockerClient, idle: Any, events: EngineEvents, ends: ExecEnds
) -> None:
    events.start()
    _connected(events)
    began = time.monotonic()
    assert ends.exit_code("0" * 64, began) is None  # waited for WAIT_S, then: ask
    events.close()
    deadline = time.monotonic() + 5
    while events.connected_since() is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert events.connected_since() is None
    exec_id = _run(docker_client, idle, ["true"])
    assert ends.exit_code(exec_id, began) is None


def test_the_room_count_learns_another_supervisor_s_container_as_it_starts(
    docker_client: docker.DockerClient, events: EngineEvents
) -> None:
    count, worker = RoomCount(), Removals(background=True, name="test-room")
    count.follow(events, worker, lambda: docker_client, mine="this-host/1/1.0")
    events.start()
    _connected(events)
    labels = {LABEL_MANAGED: "1", LABEL_SUPERVISOR: supervisor_label()}  # another supervisor's, as far as `mine` goes
    container = docker_client.containers.run(IMAGE, ["sleep", "60"], detach=True, network_disabled=True, labels=labels, mem_limit="64m")
    try:
        deadline = time.monotonic() + 10
        while container.id not in count.known():
            assert time.monotonic() < deadline, "the started container was not learned"
            time.sleep(0.01)
        room, held = count(docker_client)
        assert held[container.id] <= 64 * 1024 * 1024 and room.running >= 1
    finally:
        container.remove(force=True)
        worker.close()
