"""Admission's count of the host's room (decision 0046), on the real engine: one sparse list per
admission, an inspect only for a container it has not seen in that state, and still every managed
container counted, a newcomer from another supervisor included, so that admission still refuses
when the host has no room."""

from __future__ import annotations

import gc
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import docker
import docker.utils
import pytest

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.domain.limits import HostBusy, HostPolicy, ResourceLimits, cap_to_host
from mai_safety.infrastructure.sandbox import LABEL_MANAGED
from mai_safety.infrastructure.sandbox.admission import RoomCount
from mai_safety.infrastructure.sandbox.engine_reads import get_json
from mai_safety.infrastructure.settings import DEFAULT_IMAGE

MIB = 2**20


class _Inspects:
    """The real client, with its inspects counted (nothing stubbed: every call goes to the engine)."""

    def __init__(self, client: docker.DockerClient) -> None:
        self.client = client
        self.inspected: list[str] = []
        self._inspect = client.api.inspect_container

    def __enter__(self) -> _Inspects:
        def counted(container: str) -> Any:
            self.inspected.append(container)
            return self._inspect(container)

        self.client.api.inspect_container = counted  # type: ignore[method-assign]
        return self

    def __exit__(self, *_: object) -> None:
        self.client.api.inspect_container = self._inspect  # type: ignore[method-assign]


@pytest.fixture
def managed(docker_client: docker.DockerClient) -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for container in made:
        container.remove(force=True)


def _start(client: docker.DockerClient, made: list[Any], memory: int) -> Any:
    container = client.containers.run(
        DEFAULT_IMAGE, ["sleep", "60"], detach=True, mem_limit=memory, network_disabled=True,
        labels={LABEL_MANAGED: "1", "mai-safety.test": uuid.uuid4().hex}, name=f"mai-safety-count-{uuid.uuid4().hex[:8]}",
    )
    made.append(container)
    return container


def test_a_second_count_inspects_nothing_and_a_newcomer_is_counted_and_refuses(
    docker_client: docker.DockerClient, managed: list[Any]
) -> None:
    count = RoomCount()
    first = _start(docker_client, managed, 256 * MIB)
    with _Inspects(docker_client) as spy:
        room, held = count(docker_client)
        assert first.id in held and held[first.id] > 200 * MIB, held
        spy.inspected.clear()
        again, held_again = count(docker_client)
        # Main inspected every managed container at every admission. (Only ids are checked: the
        # engine is shared, and other suites' containers may come and go meanwhile.)
        assert first.id in held_again and first.id not in spy.inspected
        assert again.running == room.running
        # Another supervisor's container, made after: counted at the next admission, inspected once.
        newcomer = _start(docker_client, managed, 512 * MIB)
        spy.inspected.clear()
        after, held_after = count(docker_client)
        assert spy.inspected.count(newcomer.id) == 1 and first.id not in spy.inspected
        assert held_after[newcomer.id] > 450 * MIB
        assert after.running == again.running + 1
        assert after.reserved_memory_bytes >= again.reserved_memory_bytes + 450 * MIB
    # Room for the run before the newcomer came; with what it holds counted, admission refuses.
    policy = HostPolicy(memory_share=1.0, cpu_share=1.0, max_concurrent=1000, queue=0, queue_wait_s=0)
    run = ResourceLimits(cpus=1.0, memory_bytes=256 * MIB, pids=64, timeout_s=5, output_bytes=MIB, tmpfs_bytes=64 * MIB)
    stipulated = after.reserved_memory_bytes + 200 * MIB
    cap_to_host(run, run, replace(again, available_memory_bytes=stipulated), policy)
    with pytest.raises(HostBusy):
        cap_to_host(run, run, replace(after, available_memory_bytes=stipulated), policy)
    # Gone from the engine, gone from the count (and from what is kept).
    newcomer.remove(force=True)
    managed.remove(newcomer)
    _, held_gone = count(docker_client)
    assert newcomer.id not in held_gone and first.id in held_gone


def test_the_counts_list_is_the_engines_own_answer_asked_past_requests_session(
    docker_client: docker.DockerClient, managed: list[Any]
) -> None:
    """The list is asked of the SDK's own pool of connections to the engine's socket (engine_reads.py):
    the same containers the SDK's call lists, without that call; where the shortcut cannot answer,
    the SDK's call does, and its error is the one the caller gets."""
    first = _start(docker_client, managed, 64 * MIB)
    filters = {"label": f"{LABEL_MANAGED}=1", "status": ["created", "running"]}
    params = {"all": "1", "filters": docker.utils.convert_filters(filters)}

    def never() -> Any:
        raise AssertionError("the SDK's call was asked, though the engine's socket answers")

    listed = get_json(docker_client, "/containers/json", params, otherwise=never)
    by_sdk = docker_client.api.containers(all=True, filters=filters)
    assert first.id in {item["Id"] for item in listed}
    assert {item["Id"] for item in listed} & {item["Id"] for item in by_sdk} >= {first.id}
    # An error status is the SDK's to answer (here: a filter the engine refuses).
    asked = []
    assert get_json(docker_client, "/containers/json", {"filters": '{"nonsense": ["x"]}'}, otherwise=lambda: asked.append(1)) is None
    assert asked == [1]
    # No engine behind the socket: the SDK's own error, which the count says in its words.
    absent = docker.DockerClient(base_url=f"unix:///tmp/mai-safety-absent-{uuid.uuid4().hex[:8]}.sock", version="1.41")
    try:
        # docker-py's Unix connection leaves the socket of a refused connect to the collector.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            with pytest.raises(SandboxUnavailable, match="Docker does not answer"):
                RoomCount()(absent)
            gc.collect()
    finally:
        absent.close()
