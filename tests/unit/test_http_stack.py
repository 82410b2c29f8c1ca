"""The service's HTTP server runs on uvicorn's faster parts, httptools and uvloop (pyproject.toml),
which uvicorn picks by itself when they are installed: a pin that stopped installing them, or a
uvicorn that stopped picking them, would slow every request without failing one (issue #29)."""

from __future__ import annotations

import asyncio

import uvicorn


async def _app(scope: dict, receive: object, send: object) -> None:  # an ASGI app that is never called
    raise AssertionError("not called")


def test_the_server_parses_http_with_httptools_and_loops_with_uvloop() -> None:
    config = uvicorn.Config(_app, log_level="warning")  # as infrastructure/http/server.py and user_service.py make it
    config.load()
    assert config.http_protocol_class.__module__ == "uvicorn.protocols.http.httptools_impl"
    factory = config.get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert type(loop).__module__.startswith("uvloop")
        assert isinstance(loop, asyncio.AbstractEventLoop)
    finally:
        loop.close()
