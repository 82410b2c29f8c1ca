"""The README is a front door and the docs/ pages hold the rest: the README stays short, every relative
link in it and in docs/ leads somewhere that exists (a `#anchor` into a Markdown page to one of its
headings, slugged as GitHub slugs them), and no docs/ page is left where no link leads."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
README_MOST_LINES = 300

_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"", re.IGNORECASE)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose(text: str) -> str:
    """The text without its fenced code blocks: a `[x](y)` or a `# line` inside one is code, not Markdown."""
    kept, fence = [], ""
    for line in text.split("\n"):
        found = _FENCE.match(line)
        if fence:
            if found and found.group(1) == fence:
                fence = ""
            kept.append("")
        elif found:
            fence = found.group(1)
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text as rendered (a link's text, a code span's content),
    lower-cased, every character but letters, digits, `_`, `-` and spaces dropped, spaces made `-`."""
    text = _INLINE_LINK.sub(lambda found: found.group(1), heading)
    text = re.sub(r"<[^>]+>", "", text).lower()
    return "".join(c for c in text if c.isalnum() or c in "_- ").replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page offers: one per heading (a repeated one gets -1, -2, ...), and HTML anchors."""
    found: set[str] = set(_HTML_ANCHOR.findall(text))
    seen: dict[str, int] = {}
    for line in prose(text).split("\n"):
        heading = _HEADING.match(line)
        if not heading:
            continue
        slug = github_slug(heading.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(text: str) -> list[str]:
    """The targets of a page's inline links, images and reference definitions, outside code."""
    markdown = _CODE_SPAN.sub(lambda found: "code", prose(text))
    return [found.group(2) for found in _INLINE_LINK.finditer(markdown)] + _REFERENCE_DEFINITION.findall(markdown)


def broken_links(page: Path, root: Path) -> list[str]:
    """What is wrong with each relative link of `page`: a missing file, a path out of `root`, or an
    anchor no heading of the Markdown page it leads to gives."""
    problems = []
    for target in links(page.read_text(encoding="utf-8")):
        if not target or _SCHEME.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        destination = (page.parent / unquote(path_part)).resolve() if path_part else page.resolve()
        where = f"{page.relative_to(root)}: {target}"
        if not destination.is_relative_to(root.resolve()):
            problems.append(f"{where} leads out of the repository")
        elif not destination.exists():
            problems.append(f"{where}: no such file")
        elif anchor and destination.suffix == ".md":
            if unquote(anchor) not in anchors(destination.read_text(encoding="utf-8")):
                problems.append(f"{where}: {destination.name} has no heading with the anchor #{anchor}")
    return problems


def linked_pages(root: Path) -> set[Path]:
    """Every Markdown file a link from README.md or a docs/ page leads to, leaving out a page's links to itself."""
    reached: set[Path] = set()
    for page in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]:
        for target in links(page.read_text(encoding="utf-8")):
            path_part = target.partition("#")[0]
            if path_part and not _SCHEME.match(target):
                destination = (page.parent / unquote(path_part)).resolve()
                if destination != page.resolve():
                    reached.add(destination)
    return reached


def markdown_pages(root: Path) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def test_the_readme_is_at_most_300_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MOST_LINES, f"README.md has {lines} lines; move detail to a docs/ page"


def test_the_readme_keeps_the_test_command_ci_runs() -> None:
    assert "exec bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\nbash scripts/test.sh " in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_relative_link_in_the_readme_and_docs_resolves() -> None:
    problems = [problem for page in markdown_pages(ROOT) for problem in broken_links(page, ROOT)]
    assert not problems, "\n".join(problems)


def test_every_docs_page_is_linked_from_the_readme_or_another_page() -> None:
    reached = linked_pages(ROOT)
    orphans = [page.name for page in sorted((ROOT / "docs").glob("*.md")) if page.resolve() not in reached]
    assert not orphans, f"no link leads to docs/{', docs/'.join(orphans)}: link them from README.md or a page"


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("Service mode: `mai-safety serve`", "service-mode-mai-safety-serve"),
        ("The Python client: `mai_safety.client`", "the-python-client-mai_safetyclient"),
        ("Network: none, or a read-only egress for dependencies", "network-none-or-a-read-only-egress-for-dependencies"),
        ("Faults, bounds and known limits", "faults-bounds-and-known-limits"),
        ("What ran, what waits — and [the report](x.md)", "what-ran-what-waits--and-the-report"),
    ],
)
def test_anchors_are_slugged_as_github_slugs_headings(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


def test_a_repeated_heading_gets_a_numbered_anchor_and_code_is_no_heading() -> None:
    page = "# Limits\n\n## Limits\n\n```sh\n# not a heading\n```\n"
    assert anchors(page) == {"limits", "limits-1"}


def test_a_missing_page_a_wrong_anchor_and_a_way_out_are_each_reported(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n## Exit status\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "[ok](docs/guide.md#exit-status) [gone](docs/gone.md) [anchor](docs/guide.md#exit-codes)\n"
        "[out](../elsewhere.md) [web](https://example.org/x.md) `[code](docs/none.md)`\n"
        "```\n[fenced](docs/none.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(tmp_path / "README.md", tmp_path) == [
        "README.md: docs/gone.md: no such file",
        "README.md: docs/guide.md#exit-codes: guide.md has no heading with the anchor #exit-codes",
        "README.md: ../elsewhere.md leads out of the repository",
    ]


def test_a_page_no_link_leads_to_is_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "linked.md").write_text("# Linked\n\n[me](linked.md)\n", encoding="utf-8")
    (tmp_path / "docs" / "alone.md").write_text("# Alone\n\n[myself](#alone)\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("[a page](docs/linked.md)\n", encoding="utf-8")
    assert linked_pages(tmp_path) == {(tmp_path / "docs" / "linked.md").resolve()}
