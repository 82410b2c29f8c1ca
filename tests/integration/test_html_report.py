"""The HTML audit report opened in a real headless browser (Debian's chromium): its charts render,
and ledger strings written as attacks stay text. Reports are built by hand (AuditReport)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from mai_safety.application.audit_report import (
    AuditReport,
    DayFigures,
    FindingCount,
    LedgerAnchor,
    Percentiles,
    RunFiles,
    UsageAgainstLimit,
)
from mai_safety.infrastructure.reports.charts import BAR_COLOUR, LEVEL_COLOURS, SECOND_COLOUR, THIRD_COLOUR
from mai_safety.infrastructure.reports.html import render_html

ATTACK = '--><script>alert("owned")</script><img src=x onerror=alert(1)>$\\frac{1}{0}$'
ANCHOR = LedgerAnchor(head_position=1234, checkpoint_sequence=7, checkpoint_position=1200, checkpoint_sealed_at="2026-11-25T09:59:00+00:00", verified=True, verification_summary="2 chains intact, 7 checkpoints valid")


def a_busy_report(actor: str = "alice", rule: str = "B602") -> AuditReport:
    return AuditReport(
        since="2026-11-01T00:00:00+00:00",
        until=None,
        generated_at="2026-11-25T10:00:00+00:00",
        ledger=ANCHOR,
        executions=40,
        by_level={"LOW": 20, "MEDIUM": 10, "HIGH": 6, "BLOCKED": 4},
        by_decision={"run": 30, "confirm": 6, "override": 4},
        by_outcome={"completed": 30, "terminated": 6, "rejected": 4},
        terminations_by_reason={"memory": 3, "timeout": 2, actor: 1},
        per_day=[DayFigures(day=f"2026-11-{day:02d}", by_level={"LOW": day % 5 + 1, "MEDIUM": day % 3, "HIGH": 1, "BLOCKED": 1}) for day in range(1, 11)],
        overrides_by_actor={actor: 2, "carol": 1},
        confirmations_by_actor={"bob": 4, actor: 2},
        denials_by_actor={"carol": 1},
        top_findings=[FindingCount("bandit", rule, 5), FindingCount("semgrep", "subprocess-shell", 2)],
        resources={"duration_s": Percentiles(0.5, 2.0, 9.1), "peak_memory_bytes": Percentiles(2**24, 2**26, 2**27), "peak_pids": Percentiles()},
        usage_against_limits=[
            UsageAgainstLimit(actor, "2026-11-02T00:00:00+00:00", 2**20 * (run * 3 % 64), 2**26, float(run * 7 % 120), 1.0, run * 0.3 % 10, 10.0)
            for run in range(50)
        ],
        pending=2,
        oldest_pending_since="2026-11-24T08:00:00+00:00",
    )


def an_empty_report() -> AuditReport:
    return AuditReport(since=None, until=None, generated_at="2026-11-25T10:00:00+00:00", ledger=LedgerAnchor(head_position=0))


def chromium(tmp_path: Path, page: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    browser = shutil.which("chromium")
    assert browser, "Debian's chromium is missing: bash scripts/setup.sh installs it"
    return subprocess.run(
        [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}", *arguments, page.as_uri(),
        ],
        capture_output=True, text=True, timeout=120, check=True,
    )


def screenshot(tmp_path: Path, report: AuditReport, name: str) -> Image.Image:
    page = tmp_path / f"{name}.html"
    page.write_text(render_html(report), encoding="utf-8")
    shot = tmp_path / f"{name}.png"
    chromium(tmp_path, page, f"--screenshot={shot}", "--window-size=1200,4000")
    return Image.open(shot).convert("RGB")


def pixels_of(image: Image.Image, colour: str) -> int:
    wanted = tuple(int(colour[index:index + 2], 16) for index in (1, 3, 5))
    return sum(count for count, rgb in image.getcolors(maxcolors=1 << 20) or [] if rgb == wanted)


def test_the_report_is_one_file_that_fetches_nothing_and_runs_no_script() -> None:
    page = render_html(a_busy_report())
    assert "<script" not in page.lower()
    assert "src=" not in page and "href=\"http" not in page
    assert "default-src 'none'" in page
    assert page.count("<svg") == 5  # per day, outcomes, terminations, usage, answers


def test_the_charts_render_in_a_real_browser(tmp_path: Path) -> None:
    busy = screenshot(tmp_path, a_busy_report(), "busy")
    empty = screenshot(tmp_path, an_empty_report(), "empty")
    chart_colours = [*LEVEL_COLOURS.values(), BAR_COLOUR, SECOND_COLOUR]
    for colour in chart_colours:
        assert pixels_of(busy, colour) > 200, f"no chart drawn in {colour}"
        assert pixels_of(empty, colour) == 0, f"{colour} on a page without charts"
    assert len(busy.getcolors(maxcolors=1 << 20) or []) > 100  # text, bars, points: not a blank page


def test_an_actor_or_rule_holding_a_script_is_shown_as_text(tmp_path: Path) -> None:
    report = a_busy_report(actor=ATTACK, rule=ATTACK)
    page = render_html(report)
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;" in page
    path = tmp_path / "attack.html"
    path.write_text(page, encoding="utf-8")
    dom = chromium(tmp_path, path, "--dump-dom").stdout
    assert "<script" not in dom.lower() and "<img" not in dom.lower()
    assert "&lt;script&gt;alert(\"owned\")&lt;/script&gt;" in dom  # the browser read it as text


def test_what_a_diverged_run_was_seen_doing_is_listed_as_text_its_invisible_characters_shown() -> None:
    seen = {"effect": "sensitive_path", "detail": f"opened /workspace/{ATTACK}\u202egnp.exe"}
    row = {"execution_id": "e-1", "recorded_at": "2026-11-26T10:00:00+00:00", "level": "LOW", "code_sha256": "ab" * 32, "divergences": [seen]}
    page = render_html(AuditReport(since=None, until=None, generated_at="now", ledger=ANCHOR, diverged=[row]))
    section = page.split("Seen doing what their level did not predict")[1]
    assert "e-1" in section and "sensitive_path" in section and "<script" not in section.lower()
    assert "&lt;script&gt;" in section and "\u202e" not in section and "\\u202e" in section


def test_the_report_says_whether_audit_verify_passed() -> None:
    failed = LedgerAnchor(head_position=99, verified=False, verification_summary="chain broken at position 42")
    assert "passed</span>" in render_html(a_busy_report())
    page = render_html(AuditReport(since=None, until=None, generated_at="now", ledger=failed))
    assert "FAILED</span>: chain broken at position 42" in page
    assert "none yet" in page  # no checkpoint
    assert "not run</span>" in render_html(an_empty_report())


@pytest.mark.parametrize("field", ["overrides_by_actor", "terminations_by_reason"])
def test_a_dollar_in_a_ledger_string_is_not_read_as_mathtext(field: str) -> None:
    report = AuditReport(since=None, until=None, generated_at="now", ledger=ANCHOR, **{field: {"$\\notacommand{": 1}})
    assert "<svg" in render_html(report)


def test_a_report_that_cannot_be_written_leaves_nothing_and_maps_to_bad_input(tmp_path: Path) -> None:
    from mai_safety.infrastructure.cli.exit_codes import EXIT_BAD_INPUT, exit_code_for
    from mai_safety.infrastructure.reports.errors import ReportNotWritten
    from mai_safety.infrastructure.reports.html import write_html

    target = tmp_path / "report.html"
    target.mkdir()  # a folder where the file should go
    with pytest.raises(ReportNotWritten) as raised:
        write_html(a_busy_report(), target)
    assert exit_code_for(raised.value) == EXIT_BAD_INPUT
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.html"]
    written = tmp_path / "written.html"
    write_html(a_busy_report(), written)
    assert written.read_text(encoding="utf-8") == render_html(a_busy_report())


def test_many_runs_are_drawn_as_one_embedded_image_that_the_page_s_policy_lets_show(tmp_path: Path) -> None:
    runs = [UsageAgainstLimit(f"run{run}", "2026-11-02T00:00:00+00:00", 2**20 * (run % 64), 2**26, float(run % 120), 1.0, run * 0.3 % 10, 10.0) for run in range(3000)]
    report = AuditReport(since=None, until=None, generated_at="now", ledger=ANCHOR, usage_against_limits=runs)
    page = render_html(report)
    assert "data:image/png;base64," in page and len(page) < 500_000
    image = screenshot(tmp_path, report, "many")
    assert pixels_of(image, SECOND_COLOUR) > 200 and pixels_of(image, THIRD_COLOUR) > 200  # CPU and duration, drawn over memory


def test_a_run_s_png_is_a_thumbnail_the_browser_shows_and_an_svg_is_never_inlined(tmp_path: Path) -> None:
    import base64
    import io

    red = io.BytesIO()
    Image.new("RGB", (40, 40), (255, 0, 0)).save(red, format="PNG")
    svg = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').decode()
    run = RunFiles(
        "run-1",
        files_in=[{"name": "data.csv", "bytes": 8, "sha256": "c" * 64}],
        files_out=[{"name": "red.png", "bytes": len(red.getvalue()), "sha256": "a" * 64, "media_type": "image/png"},
                   {"name": ATTACK, "bytes": 60, "sha256": "b" * 64, "media_type": "image/svg+xml"}],
        thumbnails={"red.png": ("image/png", base64.b64encode(red.getvalue()).decode()), ATTACK: ("image/svg+xml", svg)},
    )
    report = AuditReport(since=None, until=None, generated_at="now", ledger=ANCHOR, run_files=[run])
    assert AuditReport.from_dict(report.to_dict()) == report  # the client renders GET /v1/report's answer alike
    page = render_html(report)
    assert page.count("<img ") == 1 and "data:image/png;base64," in page and "data:image/svg" not in page
    assert "&lt;script&gt;" in page and "<script" not in page.lower()
    assert "c" * 64 in page and "a" * 64 in page and "b" * 64 in page
    shot = screenshot(tmp_path, report, "thumbnail")
    assert pixels_of(shot, "#ff0000") > 400  # the thumbnail drawn under the page's own policy
