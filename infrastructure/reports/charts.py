"""The audit report's charts, drawn by matplotlib as inline SVG (docs/decisions/0022).

Every label that came from the ledger (actor names, reasons, levels) reaches matplotlib as plain
text: mathtext is off, so a ``$`` in an actor name is a dollar sign and never a parse error, and
text is drawn as glyph paths, so no ledger string is written into the SVG as markup. Figures are
made without pyplot (no global state, safe on any thread)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from mai_safety.application.audit_report import DayFigures, UsageAgainstLimit
from mai_safety.domain.supervision import CPU_WINDOW_S

#: Fixed colours so that the report reads the same every time (and a test can look for them).
LEVEL_COLOURS = {"LOW": "#2e7d32", "MEDIUM": "#f9a825", "HIGH": "#ef6c00", "BLOCKED": "#c62828"}
BAR_COLOUR = "#1565c0"
SECOND_COLOUR = "#6a1b9a"
THIRD_COLOUR = "#00838f"
_OTHER_LEVEL = "#757575"
#: Past this many runs the usage chart's points are one embedded image (a data: URI the page's
#: policy allows), not an element each: 10,000 runs made a 3.4 MB page as vectors.
_VECTOR_POINTS = 1000

_RC = {
    "svg.fonttype": "path",  # glyphs as paths: no ledger text in the markup, no font needed to view
    "svg.hashsalt": "mai-safety",  # stable element ids: the same report renders the same bytes
    "text.parse_math": False,  # "$x$" in an actor name stays text
    "font.size": 9,
}
_XML_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.DOTALL)
#: matplotlib writes each drawn string into a comment; none may reach the page.
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@contextmanager
def _figure(width: float, height: float) -> Iterator[Figure]:
    with matplotlib.rc_context(_RC):
        yield Figure(figsize=(width, height), layout="constrained")


def _svg(figure: Figure) -> str:
    with matplotlib.rc_context(_RC):
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})  # no timestamp: same report, same bytes
    return _COMMENT.sub("", _XML_PROLOGUE.sub("", buffer.getvalue(), count=1))


def executions_per_day(days: Sequence[DayFigures]) -> str:
    """Stacked bars: each day's executions by level."""
    levels = [level for level in LEVEL_COLOURS if any(day.by_level.get(level) for day in days)]
    levels += sorted({level for day in days for level in day.by_level} - set(LEVEL_COLOURS))
    with _figure(8, 3) as figure:
        axes = figure.add_subplot()
        positions = range(len(days))
        bottoms = [0] * len(days)
        for level in levels:
            heights = [day.by_level.get(level, 0) for day in days]
            axes.bar(positions, heights, bottom=bottoms, label=level, color=LEVEL_COLOURS.get(level, _OTHER_LEVEL))
            bottoms = [below + height for below, height in zip(bottoms, heights)]
        axes.set_xticks(list(positions), [day.day for day in days], rotation=45, ha="right")
        axes.set_ylabel("executions")
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        axes.legend(loc="upper left", fontsize=8)
        return _svg(figure)


def counts(values: Mapping[str, int], label: str, colour: str = BAR_COLOUR) -> str:
    """Horizontal bars, largest first: outcomes, terminations by reason."""
    ordered = sorted(values.items(), key=lambda item: (-item[1], item[0]))
    with _figure(6, 0.6 + 0.35 * len(ordered)) as figure:
        axes = figure.add_subplot()
        names = [name for name, _ in ordered]
        axes.barh(range(len(ordered)), [count for _, count in ordered], color=colour)
        axes.set_yticks(range(len(ordered)), names)
        axes.invert_yaxis()
        axes.set_xlabel(label)
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        return _svg(figure)


def by_actor(series: Mapping[str, Mapping[str, int]]) -> str:
    """Grouped horizontal bars: per actor, one bar per series (overrides, confirmations, denials)."""
    actors = sorted({actor for values in series.values() for actor in values})
    colours = [SECOND_COLOUR, THIRD_COLOUR, _OTHER_LEVEL]
    height = 0.8 / max(len(series), 1)
    with _figure(6, 0.8 + 0.4 * len(actors) * max(len(series), 1)) as figure:
        axes = figure.add_subplot()
        for index, (name, values) in enumerate(series.items()):
            positions = [row + index * height for row in range(len(actors))]
            axes.barh(positions, [values.get(actor, 0) for actor in actors], height=height, label=name, color=colours[index % 3])
        axes.set_yticks([row + height * (len(series) - 1) / 2 for row in range(len(actors))], actors)
        axes.invert_yaxis()
        axes.set_xlabel("answers")
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.legend(fontsize=8)
        return _svg(figure)


#: Each series of the usage chart, named with the interval its figure is taken over.
USAGE_SERIES = {
    "memory": "memory (the container's peak)",
    "CPU": f"CPU (the highest share over {CPU_WINDOW_S:g} s of the run; none for a shorter run)",
    "duration": "duration (the run's wall clock)",
}


def usage_shares(runs: Sequence[UsageAgainstLimit]) -> dict[str, list[float | None]]:
    """What the usage chart draws: each run's figures as a share of what it was granted (100 % is
    the limit), each over the interval ``USAGE_SERIES`` names."""
    return {
        "memory": [_share(run.peak_memory_bytes, run.memory_limit_bytes) for run in runs],
        "CPU": [_share(run.peak_cpu_percent, None if run.cpus is None else run.cpus * 100) for run in runs],
        "duration": [_share(run.duration_s, run.timeout_s) for run in runs],
    }


def usage_against_limits(runs: Sequence[UsageAgainstLimit]) -> str:
    """Each run's peaks as a share of what it was granted (100 % is the limit)."""
    colours = {"memory": BAR_COLOUR, "CPU": SECOND_COLOUR, "duration": THIRD_COLOUR}
    series = {USAGE_SERIES[name]: (shares, colours[name]) for name, shares in usage_shares(runs).items()}
    with _figure(8, 3) as figure:
        axes = figure.add_subplot()
        for name, (shares, colour) in series.items():
            points = [(index, share) for index, share in enumerate(shares) if share is not None]
            if points:
                axes.scatter([x for x, _ in points], [y for _, y in points], s=14, label=name, color=colour, rasterized=len(runs) > _VECTOR_POINTS)
        axes.axhline(100, color=LEVEL_COLOURS["BLOCKED"], linestyle="--", linewidth=1, label="limit")
        axes.set_xlabel("runs, oldest first")
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.set_ylabel("% of the granted limit")
        axes.legend(fontsize=8, loc="upper left")
        return _svg(figure)


def _share(used: float | None, limit: float | None) -> float | None:
    if used is None or not limit:
        return None
    return 100.0 * used / limit
