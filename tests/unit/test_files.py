"""Files in and files out, in the domain (issue #25): the names a run's files may have, the bounds
from policy, and the records the events carry; the application keeps inputs as blobs before
Assessed names them, judges a .py input with the program, and records nothing for bad input."""

from __future__ import annotations

import uuid

import pytest

from mai_safety.application.executions import MaiSafety
from mai_safety.application.ports import RunOutcome
from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.errors import SubmissionTooLarge
from mai_safety.domain.files import (
    FileBounds,
    InputFilesTooLarge,
    InvalidInputFile,
    UnsafeFileName,
    check_file_name,
    input_files,
    media_type_of,
)
from mai_safety.application.errors import ExecutionNotFound
from mai_safety.application.files import FileUnavailable
from mai_safety.domain.output import blob_sha256, references_in_state

from .fakes import FakeAssessor, FakeBlobStore, FakeSandbox
from .test_application import GATE


class ModuleAware(FakeAssessor):
    """LOW, but BLOCKED for any code that opens a socket: enough to tell which file was judged."""

    def assess(self, submission: Submission) -> Assessment:
        self.seen.append(submission)
        if "socket" in submission.code:
            return Assessment(RiskLevel.BLOCKED, (Finding("fake", "F9", RiskLevel.BLOCKED, "reverse shell"),), ("fake",))
        return Assessment(RiskLevel.LOW, analyzers=("fake",))


def _app(outcome: RunOutcome | None = None, blobs: bool = True) -> tuple[MaiSafety, FakeSandbox, FakeBlobStore]:
    sandbox, store = FakeSandbox(outcome), FakeBlobStore()
    env = {"PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite", "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared"}
    app = MaiSafety(assessor=ModuleAware(), sandbox=sandbox, policy=GATE, env=env, blob_store=(lambda recorder: store) if blobs else None)
    return app, sandbox, store


@pytest.mark.parametrize(
    "name", ["../x", "/etc/x", "a/../../x", "..", "x\x00y", "tab\there", "new\nline", "", ".", "a\\b", "\x7f", "e\u0301"]
)
def test_a_name_that_is_not_a_plain_relative_path_is_refused(name: str) -> None:
    with pytest.raises(UnsafeFileName):
        check_file_name(name)


def test_a_name_is_normalised() -> None:
    assert check_file_name("./data//in/./x.csv") == "data/in/x.csv"
    assert check_file_name("données.csv") == "données.csv"


def test_bounds_name_the_field_of_the_request() -> None:
    bounds = FileBounds(max_inputs=2, max_input_bytes=4, max_inputs_total=6)
    with pytest.raises(InputFilesTooLarge) as many:
        input_files({"a": b"", "b": b"", "c": b""}, bounds)
    assert many.value.field == "files"
    with pytest.raises(InputFilesTooLarge) as large:
        input_files({"a": b"12345"}, bounds)
    assert large.value.field == "files[0].content_base64" and isinstance(large.value, SubmissionTooLarge)
    with pytest.raises(InputFilesTooLarge) as total:
        input_files({"a": b"1234", "b": b"1234"}, bounds)
    assert total.value.field == "files"
    with pytest.raises(InvalidInputFile) as clash:
        input_files([("a", b""), ("./a", b"")], bounds)
    assert clash.value.field == "files[1].name"
    with pytest.raises(InvalidInputFile):
        input_files([("a", b""), ("a/b", b"")], bounds)


def test_media_types_come_from_the_name_and_default_to_bytes() -> None:
    assert media_type_of("plots/chart.PNG") == "image/png"
    assert media_type_of("report.html") == "text/html"
    assert media_type_of("Makefile") == "application/octet-stream"
    assert media_type_of(".png") == "application/octet-stream"


def test_verification_sees_the_blobs_of_input_and_output_files() -> None:
    sha = "ab" * 32
    assessed = b'{"code": "x", "files_in": [{"name": "data.csv", "bytes": 3, "sha256": "%s"}]}' % sha.encode()
    ending = b'{"outcome": {"files_out": [{"name": "c.png", "bytes": 3, "sha256": "%s", "media_type": "image/png"}]}}' % sha.encode()
    assert [stream for stream, _ in references_in_state(assessed)] == ["input file 'data.csv'"]
    assert [stream for stream, _ in references_in_state(ending)] == ["output file 'c.png'"]
    assert references_in_state(b'{"code": "x", "files_in": null}') == []


def test_inputs_are_kept_as_blobs_before_assessed_names_them_and_reach_the_sandbox() -> None:
    app, sandbox, store = _app()
    report = app.run(b"print(open('data.csv').read())\n", files={"./data.csv": b"a,b\n1,2\n"})
    assert report.status == "completed"
    assert report.files_in == [{"name": "data.csv", "bytes": 8, "sha256": blob_sha256(b"a,b\n1,2\n")}]
    assert store.blobs[report.files_in[0]["sha256"]] == b"a,b\n1,2\n"
    assert sandbox.files == [{"data.csv": b"a,b\n1,2\n"}]  # read back from the blob, as recorded
    assert app.verify().intact


def test_a_python_input_is_judged_with_the_program_and_the_most_severe_verdict_holds() -> None:
    app, sandbox, _ = _app()
    report = app.run(b"import helper\n", files={"helper.py": b"import socket\n"})
    assert report.level == "BLOCKED" and report.status == "awaiting_override"
    assert report.findings[0]["message"].startswith("in input file helper.py:")
    assert sandbox.prepared == []


def test_bad_files_record_nothing() -> None:
    app, sandbox, store = _app()
    before = app.recorder.max_notification_id()
    with pytest.raises(InvalidInputFile):
        app.run(b"print(1)\n", files={"../escape": b"x"})
    with pytest.raises(InvalidInputFile):
        app.run(b"print(1)\n", files={"helper.py": b"\xff\xfe not utf-8"})
    assert app.recorder.max_notification_id() == before and store.blobs == {} and sandbox.prepared == []


def test_outputs_are_kept_as_blobs_and_named_on_the_ending() -> None:
    outcome = RunOutcome(0, "", "", 0, False, 0.1, files_out=(("chart.png", b"\x89PNG..."),))
    app, _, store = _app(outcome)
    report = app.run(b"print(1)\n")
    (chart,) = report.files_out
    assert chart == {"name": "chart.png", "bytes": 7, "sha256": blob_sha256(b"\x89PNG..."), "media_type": "image/png"}
    assert app.file(report.execution_id, "chart.png")[1] == b"\x89PNG..."
    with pytest.raises(ExecutionNotFound):
        app.file(report.execution_id, "../chart.png")
    store.blobs[chart["sha256"]] = b"\x89PNG!!!"
    assert not app.verify().intact
    with pytest.raises(FileUnavailable):
        app.file(report.execution_id, "chart.png")


def test_only_a_small_png_jpeg_or_gif_whose_bytes_say_so_is_a_thumbnail() -> None:
    from mai_safety.domain.files import THUMBNAIL_MAX_BYTES, output_record, thumbnail_type

    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 16
    assert thumbnail_type(output_record("chart.png", png), png) == "image/png"
    assert thumbnail_type(output_record("photo.jpg", b"\xff\xd8\xff\xe0"), b"\xff\xd8\xff\xe0") == "image/jpeg"
    assert thumbnail_type(output_record("anim.gif", b"GIF89a..."), b"GIF89a...") == "image/gif"
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    assert thumbnail_type(output_record("diagram.svg", svg), svg) is None  # SVG can carry script
    assert thumbnail_type(output_record("fake.png", svg), svg) is None  # named a PNG, is not one
    big = png + b"\0" * THUMBNAIL_MAX_BYTES
    assert thumbnail_type(output_record("big.png", big), big) is None
