"""The request body limit, enforced while the body arrives: a declared length over it is refused
before a byte is read, and a body that grows past it (chunked) is cut off with the same 413."""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .problems import PROBLEM_JSON


class BodyTooLarge(HTTPException):
    """Raised from the body's reading: the framework answers it with the 413 problem."""


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(413, f"the request body is over the limit of {self.max_bytes} bytes")
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body: dict[str, Any] = {
            "type": "urn:mai-safety:problem:too-large",
            "title": "The request is too large",
            "status": 413,
            "detail": f"the request body is over the limit of {self.max_bytes} bytes",
        }
        payload = json.dumps(body).encode()
        await send({
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(payload)).encode()), (b"connection", b"close")],
        })
        await send({"type": "http.response.body", "body": payload})
