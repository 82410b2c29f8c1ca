"""The session interpreter's account of a cell's output files (payload/interpreter.py): the bytes of
what the cell created or changed since the cell before, within the bounds the service sends, and
the names of what is past them. The payload runs inside the sandbox; here it is loaded from its
file, in a folder of the test's own."""

from __future__ import annotations

import base64
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

PAYLOAD = Path(__file__).resolve().parents[2] / "infrastructure" / "sandbox" / "payload" / "interpreter.py"
BOUNDS = {"max_outputs": 3, "max_output_bytes": 100, "max_outputs_total": 150}


@pytest.fixture
def interpreter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("session_interpreter_under_test", PAYLOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.chdir(tmp_path)
    return module


def after_a_cell(interpreter: ModuleType) -> tuple[list[str], dict[str, bytes], list[str]]:
    outputs = interpreter._Outputs(BOUNDS)
    manifest = interpreter._manifest(outputs)
    record = outputs.record()
    kept = {item["name"]: base64.b64decode(item["data"]) for item in record["files"]}
    return [entry["name"] for entry in manifest], kept, [item["name"] for item in record["left_out"]]


def test_only_what_a_cell_created_or_changed_is_sent_and_an_input_as_given_is_not(interpreter: ModuleType, tmp_path: Path) -> None:
    interpreter._place({"given.csv": base64.b64encode(b"a,b\n").decode()})
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "made.txt").write_bytes(b"made")
    names, kept, left_out = after_a_cell(interpreter)
    assert names == ["given.csv", "out/made.txt"] and kept == {"out/made.txt": b"made"} and left_out == []

    names, kept, _ = after_a_cell(interpreter)  # nothing changed
    assert kept == {}

    (tmp_path / "given.csv").write_bytes(b"a,b\n1,2\n")
    names, kept, _ = after_a_cell(interpreter)
    assert kept == {"given.csv": b"a,b\n1,2\n"}


def test_files_past_the_bounds_are_named_as_left_out_never_sent(interpreter: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "a.bin").write_bytes(b"a" * 90)
    (tmp_path / "b.bin").write_bytes(b"b" * 90)  # 180 in all: past the total of 150
    (tmp_path / "c.bin").write_bytes(b"c" * 101)  # past each file's 100
    (tmp_path / "link").symlink_to("/etc/passwd")  # a link is never followed
    names, kept, left_out = after_a_cell(interpreter)
    assert names == ["a.bin", "b.bin", "c.bin"]
    assert kept == {"a.bin": b"a" * 90} and left_out == ["b.bin", "c.bin"]
