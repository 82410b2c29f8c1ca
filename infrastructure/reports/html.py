"""The audit report as one self-contained HTML file: ``render_html(report) -> str``.

Nothing is fetched when the file is opened: the charts are inline SVG (charts.py), the style is
inline, and there is no script at all. A run's small PNG, JPEG and GIF outputs are inlined as
``data:`` thumbnails, the one image source the policy allows; an SVG output is listed, never shown. The page's Content-Security-Policy forbids scripts and
every fetch, so even a string that escaped escaping could not run. Every string that came from the
ledger (actors, reasons, rule ids, execution ids, times) goes through ``html.escape``."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from html import escape
from pathlib import Path
from typing import Any

from mai_safety.application.audit_report import AuditReport, LedgerAnchor, Percentiles, RunFiles
from mai_safety.domain.supervision import CPU_WINDOW_S

from ..cli.terminal import visible_line
from . import charts
from .errors import ReportNotWritten

_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'"
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #212121; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; } th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.passed { color: #2e7d32; font-weight: bold; } .failed { color: #c62828; font-weight: bold; } .unknown { color: #757575; }
figure { margin: 0.5em 0; } svg { max-width: 100%; height: auto; }
figure.thumbnail { display: inline-block; margin: 0.3em; } figure.thumbnail img { max-width: 200px; max-height: 200px; border: 1px solid #ccc; }
"""
#: Resource keys (AuditReport.resources) with their heading and how a value is shown.
_RESOURCES = {
    "duration_s": ("duration (s)", lambda value: f"{value:.2f}"),
    "peak_cpu_percent": (f"peak CPU (% of one CPU, over {CPU_WINDOW_S:g} s)", lambda value: f"{value:.1f}"),
    "peak_memory_bytes": ("peak memory (MiB)", lambda value: f"{value / 2**20:.1f}"),
    "peak_pids": ("peak processes", lambda value: f"{value:.0f}"),
    "output_bytes": ("output (KiB)", lambda value: f"{value / 1024:.1f}"),
}


def render_html(report: AuditReport) -> str:
    period = f"{report.since or 'the first event'} to {report.until or 'now'}"
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">',
        "<title>mai-safety audit report</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>mai-safety audit report</h1>",
        f"<p>Executions from {escape(period)}; generated at {escape(report.generated_at)}.</p>",
        _ledger(report.ledger),
        _summary(report),
        "<h2>Executions per day by level</h2>",
        _chart(report.per_day, lambda: charts.executions_per_day(report.per_day)),
        "<h2>Outcomes</h2>",
        _chart(report.by_outcome, lambda: charts.counts(report.by_outcome, "executions")),
        "<h2>Terminations by reason</h2>",
        _chart(report.terminations_by_reason, lambda: charts.counts(report.terminations_by_reason, "terminations", charts.LEVEL_COLOURS["BLOCKED"])),
        "<h2>Resource usage against limits</h2>",
        _chart(report.usage_against_limits, lambda: charts.usage_against_limits(report.usage_against_limits)),
        "<h2>Overrides and confirmations by actor</h2>",
        _chart(_answers(report), lambda: charts.by_actor(_answers(report))),
        "<h2>Top findings</h2>",
        _table(("analyzer", "rule", "executions"), [(f.analyzer, f.rule, f.count) for f in report.top_findings]),
        "<h2>Resource percentiles</h2>",
        _percentiles(report.resources),
        "<h2>Files of the runs</h2>",
        _run_files(report.run_files),
        "<h2>Seen doing what their level did not predict</h2>",
        _diverged(report.diverged),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _ledger(anchor: LedgerAnchor) -> str:
    if anchor.verified is True:
        verdict = '<span class="passed">passed</span>'
    elif anchor.verified is False:
        verdict = '<span class="failed">FAILED</span>'
    else:
        verdict = '<span class="unknown">not run</span>'
    if anchor.checkpoint_sequence is None:
        checkpoint = "none yet"
    else:
        checkpoint = (
            f"number {anchor.checkpoint_sequence} at position {_text(anchor.checkpoint_position)}, "
            f"sealed at {_text(anchor.checkpoint_sealed_at)}"
        )
    rows = [
        ("ledger head (position)", str(anchor.head_position)),
        ("newest checkpoint covered", checkpoint),
    ]
    summary = f": {escape(anchor.verification_summary)}" if anchor.verification_summary else ""
    return (
        '<h2>The signed record</h2><section id="ledger">'
        + _table(("", ""), rows, header=False)
        + f'<p id="verification">audit verify: {verdict}{summary}</p></section>'
    )


def _summary(report: AuditReport) -> str:
    rows: list[tuple[object, ...]] = [("executions", report.executions), ("waiting for an answer", report.pending)]
    if report.oldest_pending_since:
        rows.append(("oldest waiting since", report.oldest_pending_since))
    rows += [(f"level {level}", count) for level, count in report.by_level.items()]
    rows += [(f"decision {decision}", count) for decision, count in report.by_decision.items()]
    return "<h2>Summary</h2>" + _table(("", ""), rows, header=False)


def _answers(report: AuditReport) -> dict[str, Mapping[str, int]]:
    series = {
        "overrides": report.overrides_by_actor,
        "confirmations": report.confirmations_by_actor,
        "denials": report.denials_by_actor,
    }
    return {name: values for name, values in series.items() if values}


def _chart(data: Sized, draw: Callable[[], str]) -> str:
    if not data:
        return "<p>None in the period.</p>"
    return f"<figure>{draw()}</figure>"


def _percentiles(resources: Mapping[str, Percentiles]) -> str:
    rows = []
    for key, figures in resources.items():
        heading, show = _RESOURCES.get(key, (key, lambda value: f"{value:g}"))
        rows.append((heading, *(("-" if value is None else show(value)) for value in (figures.p50, figures.p95, figures.max))))
    return _table(("resource", "p50", "p95", "max"), rows)


#: The only media types a thumbnail's data: URI may name (domain.files.thumbnail_type); SVG never.
_INLINED = frozenset({"image/png", "image/jpeg", "image/gif"})


def _run_files(runs: Sequence[RunFiles]) -> str:
    """Each run's inputs and outputs (name, size, SHA-256, media type), its small images beneath as
    thumbnails: a data: URI of a raster type, the only image source the page's policy allows."""
    if not runs:
        return "<p>None in the period.</p>"
    parts = ['<section id="files">']
    for run in runs:
        # A name the code chose may hold a right-to-left override ("\u202egnp.exe" shows as "exe.png"): shown as its escape.
        rows = [("in", _name(item.get("name")), item.get("bytes"), "-", item.get("sha256")) for item in run.files_in]
        rows += [("out", _name(item.get("name")), item.get("bytes"), item.get("media_type"), item.get("sha256")) for item in run.files_out]
        parts.append(f"<h3>execution {_text(run.execution_id)}</h3>")
        parts.append(_table(("", "name", "bytes", "media type", "SHA-256"), rows))
        pictures = [
            f'<figure class="thumbnail"><img src="data:{media_type};base64,{escape(data)}" alt="{escape(_name(name))}">'
            f"<figcaption>{escape(_name(name))}</figcaption></figure>"
            for name, (media_type, data) in run.thumbnails.items()
            if media_type in _INLINED and _BASE64.fullmatch(data)
        ]
        parts.extend(pictures)
    return "".join(parts) + "</section>"


def _diverged(rows: Sequence[Mapping[str, Any]]) -> str:
    """Each diverged execution and what its observed record showed (decision 0044). The details
    quote names the code chose (a path, a program): escaped, their invisible characters shown."""
    return _table(
        ("execution", "recorded at", "rated", "seen", "what"),
        [
            (row.get("execution_id"), row.get("recorded_at"), row.get("level"), item.get("effect"), _name(item.get("detail")))
            for row in rows
            for item in row.get("divergences") or []
        ],
    )


def _name(name: object) -> str:
    return visible_line(str(name))


def _table(headings: Sequence[str], rows: Iterable[Sequence[object]], header: bool = True) -> str:
    body = "".join("<tr>" + "".join(_cell(value) for value in row) + "</tr>" for row in rows)
    if not body:
        return "<p>None in the period.</p>"
    head = "<tr>" + "".join(f"<th>{escape(name)}</th>" for name in headings) + "</tr>" if header else ""
    return f"<table>{head}{body}</table>"


def _cell(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f'<td class="number">{value}</td>'
    return f"<td>{_text(value)}</td>"


def _text(value: object) -> str:
    return "-" if value is None else escape(str(value))


def write_html(report: AuditReport, path: Path) -> None:
    """Render ``report`` into ``path`` whole or not at all: written beside it, then renamed."""
    page = render_html(report)
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(page, encoding="utf-8")
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise ReportNotWritten(f"cannot write the report to {path}: {exc.strerror or exc}") from None
