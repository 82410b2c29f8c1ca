"""``history``'s lines for what a run was observed to do (decision 0044), under its ending event,
and for a divergence. What the record quotes (argv, paths) came from the code: each line crosses
``visible_line``, so nothing in one reaches the terminal raw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .terminal import visible_line

_MAX_LINES = 20


def observed_lines(event: Mapping[str, Any]) -> list[str]:
    observed = event.get("observed")
    lines: list[str] = []
    if isinstance(observed, Mapping):
        state = "complete" if observed.get("complete") else f"incomplete: {observed.get('problem', '?')}"
        lines.append(f"      observed (a fact, seen from outside the code by {observed.get('source')}; {state})")
        if observed.get("note"):
            lines.append(f"        thinner: {observed['note']}")
        for process in observed.get("processes") or []:
            lines.append("        executed   " + " ".join(str(word) for word in process.get("argv") or []))
        for seen in observed.get("files") or []:
            lines.append(f"        opened     {seen.get('path')} to {seen.get('access')}{'' if seen.get('ok') else ' (failed)'}")
        for seen in observed.get("removed") or []:
            to = f" -> {seen['to']}" if seen.get("to") else ""
            lines.append(f"        {seen.get('operation', '?'):<10} {seen.get('path')}{to}{'' if seen.get('ok') else ' (failed)'}")
        for seen in observed.get("connections") or []:
            port = f":{seen['port']}" if "port" in seen else ""
            lines.append(f"        connected  {seen.get('address')}{port} {seen.get('family')}{'' if seen.get('ok') else ' (failed)'}")
        for seen in observed.get("signals") or []:
            lines.append(f"        signalled  {seen.get('target')} with {seen.get('signal')}{'' if seen.get('own') else ' (not its own)'}")
    for divergence in event.get("divergences") or []:
        lines.append(f"      diverged: {divergence.get('effect')}: {divergence.get('detail')}")
    return [visible_line(line) for line in lines[:_MAX_LINES]]
