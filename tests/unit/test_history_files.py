"""``history`` shows a run's files as lines of their own, every name the code chose shown safely
(local and client mode share infrastructure/cli/text.py)."""

from __future__ import annotations

from mai_safety.infrastructure.cli.text import event_line, file_lines

_SHA = "ab" * 32
_EVIL = "\x1b]0;owned\x07\x1b[2J\u202eevil.png\nstatus: completed"


def _assessed() -> dict[str, object]:
    return {
        "version": 1, "timestamp": "2026-11-26T08:00:00", "event": "Assessed", "actor": "mai",
        "level": "LOW", "files_in": [{"name": "data.csv", "bytes": 2048, "sha256": _SHA}],
    }


def _completed(name: str) -> dict[str, object]:
    return {
        "version": 4, "timestamp": "2026-11-26T08:00:01", "event": "Completed", "actor": "mai",
        "outcome": {"exit_code": 0, "files_out": [{"name": name, "bytes": 1234, "sha256": _SHA, "media_type": "image/png"}]},
    }


def test_history_lists_inputs_as_lines_not_as_truncated_json() -> None:
    event = _assessed()
    assert "files_in=" not in event_line(event)
    (line,) = file_lines(event)
    assert "in " in line and "2048" in line and "sha256:abababababab" in line and line.endswith("data.csv")


def test_history_lists_outputs_with_their_media_type_and_keeps_the_rest_of_the_outcome() -> None:
    event = _completed("chart.png")
    head = event_line(event)
    assert "files_out" not in head and '"exit_code": 0' in head
    (line,) = file_lines(event)
    assert "out" in line and "1234" in line and "image/png" in line and line.endswith("chart.png")


def test_an_output_name_never_reaches_the_terminal_raw() -> None:
    (line,) = file_lines(_completed(_EVIL))
    assert "\x1b" not in line and "\x07" not in line and "\u202e" not in line and "\n" not in line
    assert "\\x1b]0;owned\\x07" in line and "\\u202e" in line and "\\nstatus: completed" in line


def test_an_event_without_files_has_no_file_lines() -> None:
    assert file_lines({"version": 2, "timestamp": "t", "event": "Started", "actor": "mai"}) == []
