"""`run --output-dir DIR` writes what the code named, so every name is an attack on DIR: a name
that climbs out, a link already in DIR pointing elsewhere, a file that is there already."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mai_safety.infrastructure.output_files import OutputNotWritten, write_outputs


def test_outputs_are_written_below_the_directory_in_their_folders(tmp_path: Path) -> None:
    written = write_outputs(str(tmp_path), [("chart.png", b"png"), ("tables/rain.csv", b"csv")])
    assert written == [str(tmp_path / "chart.png"), str(tmp_path / "tables/rain.csv")]
    assert (tmp_path / "tables/rain.csv").read_bytes() == b"csv"


@pytest.mark.parametrize("name", ["../escape", "/etc/x", "a/../../b", "bad\nname"])
def test_a_name_that_leaves_the_directory_writes_nothing(tmp_path: Path, name: str) -> None:
    with pytest.raises(OutputNotWritten):
        write_outputs(str(tmp_path / "out"), [("fine.txt", b"1"), (name, b"x")])
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_an_existing_file_is_kept_unless_forced_and_a_link_is_never_followed(tmp_path: Path) -> None:
    (tmp_path / "chart.png").write_bytes(b"mine")
    with pytest.raises(OutputNotWritten, match="--force"):
        write_outputs(str(tmp_path), [("new.txt", b"n"), ("chart.png", b"theirs")])
    assert (tmp_path / "chart.png").read_bytes() == b"mine" and not (tmp_path / "new.txt").exists()
    write_outputs(str(tmp_path), [("chart.png", b"theirs")], force=True)
    assert (tmp_path / "chart.png").read_bytes() == b"theirs"
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / "linked").symlink_to(outside)
    (tmp_path / "passwd").symlink_to(outside / "passwd")
    for name in ("linked/x.txt", "passwd"):
        with pytest.raises(OutputNotWritten, match="not followed"):
            write_outputs(str(tmp_path), [(name, b"x")], force=True)
    assert list(outside.iterdir()) == []
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(OutputNotWritten):
        write_outputs(str(tmp_path), [("pipe", b"x")], force=True)
