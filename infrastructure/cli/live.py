"""The live view of a run on a terminal, in client mode: while a run that has lasted more than a
second goes on, its elapsed time, CPU time and memory against their limits, and its output as it
comes, followed from the service's event stream (``GET /v1/executions/{id}/stream``).

The view is drawn with Rich (imported here only when a view is drawn) and is transient: when the
run ends it is erased, and the CLI prints the final report exactly as without it. Everything in it
that comes from the program passes through ``terminal``: its output is ``framed`` (under a header
naming it, each line prefixed ``  | ``, control characters and escape sequences shown escaped), and
is handed to Rich as plain ``Text`` (no markup, no emoji codes, no highlighting), so nothing the
program prints can move the cursor, recolour or pass for one of the CLI's own lines."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping
from typing import IO, Any

from mai_safety.client import AWAITING_OVERRIDE, NotFound, PlainClient, Reply

from .terminal import framed, visible_line

#: A run not ended after this long gets the live view: the submission waits this long for the end.
LIVE_AFTER_S = 1.0
#: How often the view is redrawn (the elapsed time moves between the service's samples).
REFRESH_PER_S = 8
#: How often, and how long, to look again for an execution still being assessed (not recorded
#: yet: no stream); past that, ``wait`` takes over with its own bound.
ASSESSING_POLL_S = 0.2
ASSESSING_FOR_S = 600.0


def wanted(as_json: bool, out: IO[str]) -> bool:
    """A live view only for a person at a terminal: never with ``--json``, into a pipe or a file,
    or on a terminal that cannot move its cursor."""
    return not as_json and out.isatty() and os.environ.get("TERM") != "dumb"


class RunView:
    """What the view shows, updated from the stream's events (the reading thread) and read by
    Rich's refresh (its own thread): each as plain, already safe lines."""

    def __init__(self, execution_id: str, since: float) -> None:
        self.execution_id = execution_id
        self.since = since
        self.status = "submitted"
        self.limits: Mapping[str, Any] = {}
        self.sample: Mapping[str, Any] = {}
        self.output = {"stdout": "", "stderr": ""}
        self.missed = 0
        self._lock = threading.Lock()

    def take(self, event: str, data: Any) -> None:
        with self._lock:
            if event == "state":
                self.status = str(data.get("status", self.status))
            elif event == "recorded" and data.get("event") == "Started":
                self.status = "running"
            elif event == "sample" and isinstance(data.get("sample"), dict):
                self.sample = data["sample"]
                self.status = "running"
            elif event == "output" and data.get("stream") in self.output:
                self.output[data["stream"]] += str(data.get("text", ""))
            elif event == "dropped":
                self.missed += int(data.get("bytes", 0))

    def lines(self, height: int) -> list[str]:
        """The view in at most ``height`` lines; the output shows its last lines."""
        with self._lock:
            head = [
                visible_line(f"execution {self.execution_id}: {self.status}, elapsed {time.monotonic() - self.since:.1f} s"
                             + _of(self.limits.get("timeout_s"), " s")),
                visible_line(f"CPU {_seconds(self.sample.get('cpu_seconds'))}{_of(self.limits.get('cpu_seconds'), ' s')}"
                             f" (cpus {_number(self.limits.get('cpus'))}), memory {_size(self.sample.get('memory_bytes'))}"
                             f"{_of_size(self.limits.get('memory_bytes'))}"),
            ]
            if self.missed:
                head.append(f"({self.missed} bytes of output came before this view could show them: the whole output follows at the end)")
            shown = [(name, text) for name, text in self.output.items() if text]
        room = max(2, (height - len(head) - 1) // max(1, len(shown)) - 1) if shown else 0
        body: list[str] = []
        for name, text in shown:
            title, *rest = framed(f"program {name} so far", text).rstrip("\n").split("\n")
            body.append(title)
            body.extend(rest[-room:])
        return head + body


def _seconds(value: Any) -> str:
    return f"{float(value):.2f} s" if isinstance(value, (int, float)) else "-"


def _number(value: Any) -> str:
    return f"{float(value):g}" if isinstance(value, (int, float)) else "-"


def _of(limit: Any, unit: str) -> str:
    return f" of {float(limit):g}{unit}" if isinstance(limit, (int, float)) else ""


def _size(value: Any) -> str:
    return f"{float(value) / 2**20:.1f} MiB" if isinstance(value, (int, float)) else "-"


def _of_size(limit: Any) -> str:
    return f" of {float(limit) / 2**20:.0f} MiB" if isinstance(limit, (int, float)) else ""


def follow(client: PlainClient, first: Reply, out: IO[str], *, since: float) -> dict[str, Any]:
    """Show ``first`` (a pending answer to a request sent at ``since``, on the monotonic clock)
    live until it ends or awaits a person, then return its report as ``wait`` would have: the CLI
    prints it as it prints any other."""
    from rich.console import Console, Group
    from rich.live import Live
    from rich.text import Text

    execution_id = str(first.data["execution_id"])
    view = RunView(execution_id, since)
    view.status = str(first.data.get("status", view.status))
    console = Console(file=out, markup=False, emoji=False, highlight=False)

    def render() -> Group:
        return Group(*(Text(line, no_wrap=True, overflow="ellipsis") for line in view.lines(console.size.height - 1)))

    with Live(get_renderable=render, console=console, transient=True, refresh_per_second=REFRESH_PER_S,
              redirect_stdout=False, redirect_stderr=False):
        ended = _follow_stream(client, first, view)
    return ended if ended is not None else client.wait(execution_id, first=first)


def _follow_stream(client: PlainClient, first: Reply, view: RunView) -> dict[str, Any] | None:
    """The report from the stream's ``end``; None when the stream stopped short of it (the
    execution awaits a person, the service is stopping): the caller reads it again."""
    deadline = time.monotonic() + ASSESSING_FOR_S
    while True:
        try:
            for event, data in client.stream(view.execution_id):
                view.take(event, data)
                if event == "end":
                    return dict(data)
                if event == "closing" or (event == "state" and data.get("status") == AWAITING_OVERRIDE):
                    return None
                # The stream replays the whole history: a request for an answer may be an old one
                # (the run approve started), or the reason this one will not run without a person.
                if event == "recorded" and data.get("event") == "OverrideRequested" and client.get(view.execution_id).get("status") == AWAITING_OVERRIDE:
                    return None
                if not view.limits and (event == "state" or (event == "recorded" and data.get("event") == "Started")):
                    view.limits = client.get(view.execution_id).get("limits") or {}
            return None
        except NotFound:
            if first.data.get("status") != "assessing" or time.monotonic() >= deadline:
                raise
            time.sleep(ASSESSING_POLL_S)  # recorded once its assessment ends; the stream opens then
