"""The CPU share the supervisor records (domain.supervision.Peaks): taken between two readings of
the run over at least CPU_WINDOW_S, never from zero, where the container's counter began before
the code (the runner's start, the keeper)."""

from __future__ import annotations

from mai_safety.domain.supervision import CPU_WINDOW_S, Peaks, Usage


def reading(elapsed_s: float, cpu_seconds: float) -> Usage:
    return Usage(elapsed_s, cpu_seconds, 2**20, 2**20, 1, 0, False, 0)


def test_a_busy_second_is_one_cpu_whatever_the_container_used_before_the_code() -> None:
    peaks = Peaks()
    for step in range(9):  # every 0.25 s for 2 s, with 0.3 s spent before the code began
        peaks.add(reading(0.02 + step * 0.25, 0.3 + step * 0.25))
    recorded = peaks.to_dict()
    assert recorded["cpu_percent"] == 100.0
    assert recorded["cpu_percent_window_s"] == CPU_WINDOW_S
    assert recorded["cpu_seconds"] == 2.3  # the counter itself, as read: the container's


def test_a_run_shorter_than_a_window_records_no_cpu_share() -> None:
    peaks = Peaks()
    peaks.add(reading(0.01, 0.05))
    peaks.add(reading(0.06, 0.09))  # 0.04 s of CPU in 0.05 s: 80 %, over too short a time to say
    assert "cpu_percent" not in peaks.to_dict()


def test_an_idle_run_is_near_zero() -> None:
    peaks = Peaks()
    for step in range(9):
        peaks.add(reading(0.02 + step * 0.25, 0.2 + step * 0.001))
    assert peaks.to_dict()["cpu_percent"] < 1
