"""The files of an execution: the list (``GET /v1/executions/{id}/files``) and each output's bytes
(``GET /v1/executions/{id}/files/{name}``), visible exactly as the execution is (another submitter's
is 404). An output is served as an attachment with its recorded media type, ``nosniff`` and a
sandboxing Content-Security-Policy: the service never renders what the code wrote (an HTML or SVG
output included). Also the decoding of a request's input files (base64), at the edge."""

# No ``from __future__ import annotations``: FastAPI reads the routes' annotations at runtime.

import base64
import binascii
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response

from mai_safety.domain.files import FileBounds, InvalidInputFile

from .auth import Caller, as_principal
from .models import InputFileModel

router = APIRouter()


def decoded_files(files: list[InputFileModel]) -> list[tuple[str, bytes]]:
    """Each file's name and bytes; a content that is not base64 is a 422 naming its field."""
    decoded = []
    for index, item in enumerate(files):
        try:
            data = base64.b64decode(item.content_base64, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidInputFile(
                f"input file {index}'s content is not base64 (RFC 4648, standard alphabet)", field=f"files[{index}].content_base64"
            ) from None
        decoded.append((item.name, data))
    return decoded


def files_allowance(bounds: FileBounds) -> int:
    """What input files may add to a request body: their bytes as base64, and a name and some JSON each."""
    return -(-bounds.max_inputs_total * 4 // 3) + bounds.max_inputs * 1200


@router.get("/v1/executions/{execution_id}/files", tags=["files"])
def files(request: Request, execution_id: str, who: Caller) -> dict[str, Any]:
    """The files the execution was given (``files_in``) and left (``files_out``): name, size,
    SHA-256, and for an output its media type."""
    with as_principal(who):
        return dict(request.app.state.service.files(execution_id))


@router.get(
    "/v1/executions/{execution_id}/files/{name:path}",
    tags=["files"],
    response_class=Response,
    responses={200: {"content": {"*/*": {"schema": {"type": "string", "format": "binary"}}}, "description": "the file's bytes, as an attachment with their recorded media type"}},
)
def file(request: Request, execution_id: str, name: str, who: Caller) -> Response:
    """One output file's bytes, exactly as recorded (their SHA-256 is checked before they are
    served), as an attachment with the recorded media type."""
    with as_principal(who):
        record, data = request.app.state.service.file(execution_id, name)
    base = record["name"].rsplit("/", 1)[-1]
    fallback = "".join(character if character.isascii() and character.isalnum() or character in "._-" else "_" for character in base)
    return Response(
        content=data,
        media_type=record.get("media_type") or "application/octet-stream",
        headers={
            "Content-Disposition": f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(base, safe='')}",
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "sandbox; default-src 'none'",
            "X-File-SHA256": record["sha256"],
        },
    )
