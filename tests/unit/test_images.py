"""The sandbox image a run may ask for (issue #25): the default always, a named one only for the
trust levels the policy lists; what a waiting execution asked for is what its answer runs."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest

from mai_safety.application.executions import MaiSafety
from mai_safety.domain.images import ImageNotAllowed, NamedImage, SandboxImages
from mai_safety.domain.levels import RiskLevel, TrustLevel

from .fakes import FakeAssessor, FakeSandbox
from .test_application import GATE

IMAGES = SandboxImages({"data": NamedImage("mai-safety/sandbox-data:1", frozenset({TrustLevel.STANDARD}))})


class ImageSandbox(FakeSandbox):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []

    def prepare(self, *args, image: str = "default", **options):  # type: ignore[no-untyped-def]
        self.images.append(image)
        return super().prepare(*args, **options)


def _app(level: RiskLevel = RiskLevel.LOW) -> tuple[MaiSafety, ImageSandbox]:
    sandbox = ImageSandbox()
    env = {"PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite", "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared"}
    return MaiSafety(assessor=FakeAssessor(level), sandbox=sandbox, policy=replace(GATE, images=IMAGES), env=env), sandbox


def test_a_named_image_is_granted_only_to_the_trust_levels_the_policy_lists() -> None:
    assert IMAGES.check("data", TrustLevel.STANDARD) == "data"
    assert IMAGES.check("default", TrustLevel.UNTRUSTED) == "default"
    with pytest.raises(ImageNotAllowed, match="for standard code"):
        IMAGES.check("data", TrustLevel.UNTRUSTED)
    with pytest.raises(ImageNotAllowed, match="no sandbox image named 'gpu'"):
        IMAGES.check("gpu", TrustLevel.STANDARD)


def test_a_run_gets_the_image_it_asked_for_and_an_unknown_one_records_nothing() -> None:
    app, sandbox = _app()
    assert app.run(b"print(1)\n", image="data").status == "completed"
    assert app.run(b"print(1)\n").status == "completed"
    assert sandbox.images == ["data", "default"]
    before = app.recorder.max_notification_id()
    with pytest.raises(ImageNotAllowed):
        app.run(b"print(1)\n", image="gpu")
    assert app.recorder.max_notification_id() == before


def test_a_waiting_execution_runs_on_the_image_it_asked_for_once_answered() -> None:
    app, sandbox = _app(RiskLevel.HIGH)
    untrusted_too = replace(IMAGES, named={"data": NamedImage("x", frozenset(TrustLevel))})
    app.policy = replace(app.policy, images=untrusted_too)
    waiting = app.run(b"print(1)\n", image="data")
    assert waiting.status == "awaiting_override" and sandbox.images == []
    assert app.approve(waiting.execution_id, "fine").status == "completed"
    assert sandbox.images == ["data"]
