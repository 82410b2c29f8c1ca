"""The trust boundary between the program's words and ours on a terminal (and in the CLI's text
output generally). A program's output, its code, and anything taken from them (a finding's
snippet, a path it named) reach the CLI's text only through these functions:

* ``visible`` / ``visible_line``: control characters, escape sequences, carriage returns, C1
  controls, Unicode line separators and bidirectional overrides are shown as ``\\xNN`` /
  ``\\r`` / ``\\uNNNN``, so nothing moves the cursor, clears the screen, recolours or reorders
  what the CLI printed; ``visible_line`` also shows a newline as ``\\n``: one value, one line;
* ``framed``: the program's text under a header that says whose words they are, every line of it
  prefixed with ``  | ``, so no line it prints can pass for one of the CLI's own
  (``level: LOW``, ``status: completed``).

``--json`` output never goes through here: it stays exact (JSON escapes control characters itself).
Imports nothing heavy: the thin client uses it too."""

from __future__ import annotations

PREFIX = "  | "

#: Characters a terminal acts on, or that reorder or break what is shown, beyond the C0 and C1
#: control ranges: Unicode line and paragraph separators, bidirectional marks, embeddings,
#: overrides and isolates (the "Trojan Source" characters), and the byte order mark.
_UNICODE_CONTROLS = frozenset(
    "\u0085\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
)
_NAMED = {"\r": "\\r", "\n": "\\n"}


def _shown(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _dangerous(char: str) -> bool:
    code = ord(char)
    return (
        (code < 0x20 and char != "\t")
        or 0x7F <= code <= 0x9F
        or char in _UNICODE_CONTROLS
        or 0xD800 <= code <= 0xDFFF  # a lone surrogate: cannot even be written out
    )


def visible(text: str) -> str:
    """``text`` with every control character shown as an escape, newlines kept."""
    if not any(_dangerous(char) for char in text):
        return text
    return "".join(_shown(char) if _dangerous(char) and char != "\n" else char for char in text)


def visible_line(text: str) -> str:
    """``text`` as one line: ``visible``, and a newline shown as ``\\n`` too."""
    return visible(text).replace("\n", "\\n")


def framed(title: str, text: str) -> str:
    """The program's ``text`` under a header naming it, each line prefixed with ``  | ``."""
    lines = visible(text).split("\n")
    ends_with_newline = lines[-1] == ""
    if ends_with_newline:
        lines.pop()
    out = [f"{title} (the program's own words, not mai-safety's; control characters shown as \\xNN):"]
    out.extend(f"{PREFIX}{line}" for line in lines)
    if not ends_with_newline:
        out.append("  (no newline at the end)")
    return "\n".join(out) + "\n"
