"""What the Docker engine says of itself, for ``mai-safety status`` and the service's ``/v1/status``:
its version and runtimes, whether the images are built, gVisor's state. Docker's errors are read
through ``errors.py`` like everywhere else in the sandbox; a probe never raises, it reports."""

from __future__ import annotations

from typing import Any

import docker

from .errors import DOCKER_ERRORS, BestEffort, short
from .runtimes import gvisor_status


def engine_status(sandbox_image: str, proxy_image: str) -> dict[str, Any]:
    """``answers`` with version, runtimes, images (name: built?) and gvisor, or ``answers: False``
    with a one-line ``reason``."""
    try:
        client = docker.from_env(timeout=10)
    except DOCKER_ERRORS as exc:
        return {"answers": False, "reason": short(exc), "images": {}}
    try:
        version = client.version().get("Version", "?")
        runtimes = sorted(client.info().get("Runtimes") or {})
        images = {image: _image_present(client, image) for image in (sandbox_image, proxy_image)}
        gvisor = gvisor_status(client)
    except (*DOCKER_ERRORS, OSError) as exc:
        return {"answers": False, "reason": short(exc), "images": {}}
    finally:
        client.close()
    return {"answers": True, "version": version, "runtimes": runtimes, "images": images, "gvisor": gvisor}


def _image_present(client: docker.DockerClient, image: str) -> bool:
    with BestEffort() as attempt:
        client.images.get(image)
    if attempt.error is not None and not attempt.gone:
        raise attempt.error  # the engine failed: the caller reports it as not answering
    return not attempt.failed
