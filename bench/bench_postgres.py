"""A Postgres for the benchmarks, from the locally built image, removed afterwards."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import docker
import psycopg
from psycopg.conninfo import make_conninfo

POSTGRES_IMAGE = "mai-safety/postgres:15"


@contextmanager
def postgres_server(via: str = "bridge") -> Iterator[dict[str, str]]:
    """A Postgres of our image, reached at the container's own address on Docker's bridge
    (``via="bridge"``, as a service on the same Docker network would reach it) or through a port
    published on 127.0.0.1 (``via="port"``: every byte then passes through docker-proxy, a third
    process on a 2-core machine)."""
    client = docker.from_env()
    container = client.containers.run(
        POSTGRES_IMAGE,
        detach=True,
        environment={"POSTGRES_USER": "bench", "POSTGRES_PASSWORD": "bench", "POSTGRES_DB": "bench"},
        ports={"5432/tcp": ("127.0.0.1", None)},
        labels={"mai-safety.bench": "1"},
    )
    try:
        container.reload()
        if via == "bridge":
            host, port = container.attrs["NetworkSettings"]["IPAddress"], "5432"
        else:
            host, port = "127.0.0.1", container.ports["5432/tcp"][0]["HostPort"]
        server = {"host": host, "port": port, "user": "bench", "password": "bench"}
        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(conninfo(server, "bench"), connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        yield server
    finally:
        container.remove(force=True)
        client.close()


def conninfo(server: dict[str, str], database: str) -> str:
    return make_conninfo(dbname=database, **server)


