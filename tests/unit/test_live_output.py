"""The live output hub: a writer that never waits, readers bounded in memory and told what they missed."""

from __future__ import annotations

import threading
import time

from mai_safety.application.live import LiveOutput


def test_a_watcher_gets_the_output_in_order_with_streams_kept_apart() -> None:
    hub = LiveOutput()
    watcher = hub.watch("e1")
    write = hub.open("e1")
    write("stdout", b"one\n")
    write("stdout", b"two\n")
    write("stderr", b"oops\n")
    write("stdout", b"three\n")
    taken = watcher.take()
    assert taken.missed == 0
    assert taken.chunks == [("stdout", "one\ntwo\n"), ("stderr", "oops\n"), ("stdout", "three\n")]
    assert watcher.take().chunks == []


def test_a_character_cut_between_chunks_arrives_whole() -> None:
    hub = LiveOutput()
    watcher = hub.watch("e1")
    write = hub.open("e1")
    encoded = "été\n".encode()
    write("stdout", encoded[:1])
    write("stdout", encoded[1:])
    assert watcher.take().chunks == [("stdout", "été\n")]
    write("stdout", "€".encode()[:2])
    hub.close("e1")  # the run ended mid-character: what is left is shown as a replacement
    assert watcher.take().chunks == [("stdout", "\ufffd")]


def test_a_reader_that_falls_behind_holds_no_more_than_its_bound_and_is_told_what_it_missed() -> None:
    hub = LiveOutput(backlog_bytes=1024, watcher_bytes=4096)
    watcher = hub.watch("e1")
    write = hub.open("e1")
    chunk = b"x" * 1000
    started = time.monotonic()
    for _ in range(100_000):  # 100 MB written while nobody reads
        write("stdout", chunk)
    assert time.monotonic() - started < 10  # never waits for the reader
    assert hub.held_bytes() <= 1024 + 4096
    taken = watcher.take()
    assert sum(len(text) for _, text in taken.chunks) == 4000
    assert taken.missed == 100_000 * 1000 - 4000
    write("stdout", b"after\n")
    again = watcher.take()
    assert (again.missed, again.chunks) == (0, [("stdout", "after\n")])


def test_a_late_watcher_gets_what_the_run_still_keeps_and_how_much_came_before() -> None:
    hub = LiveOutput(backlog_bytes=10)
    write = hub.open("e1")
    for index in range(10):
        write("stdout", f"{index}\n".encode())
    watcher = hub.watch("e1")
    taken = watcher.take()
    assert taken.chunks == [("stdout", "5\n6\n7\n8\n9\n")] and taken.missed == 10


def test_closed_watchers_and_ended_runs_hold_nothing() -> None:
    hub = LiveOutput()
    watcher = hub.watch("e1")
    write = hub.open("e1")
    write("stdout", b"x" * 100)
    watcher.close()
    hub.close("e1")
    assert hub.held_bytes() == 0 and hub.describe() == {"runs": 0, "watchers": 0, "held_bytes": 0}


def test_writers_and_readers_on_many_threads_lose_nothing_they_were_not_told_of() -> None:
    hub = LiveOutput(watcher_bytes=1 << 20)
    watcher = hub.watch("e1")
    write = hub.open("e1")
    threads = [threading.Thread(target=lambda: [write("stdout", b"ab") for _ in range(10_000)]) for _ in range(4)]
    for thread in threads:
        thread.start()
    received, missed = 0, 0
    while any(thread.is_alive() for thread in threads):
        taken = watcher.take()
        received += sum(len(text) for _, text in taken.chunks)
        missed += taken.missed
    for thread in threads:
        thread.join()
    taken = watcher.take(max_bytes=1 << 30)
    received += sum(len(text) for _, text in taken.chunks)
    missed += taken.missed
    assert received + missed == 4 * 10_000 * 2
