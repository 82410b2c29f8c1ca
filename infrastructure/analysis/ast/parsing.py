"""Reading code, including code that does not parse: the parser with warnings that are errors kept
quiet, the parts that parse on their own, and the rest read token by token.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import threading
import tokenize
import warnings
from typing import Iterable

from ..policy import ThreatList, normalise_package
from ..sensitive_paths import SensitivePaths
from . import rules
from .command_lines import command_hits
from .commands import secret_label
from .state import Hit, clip

_WARNING_TURNED_ERROR = re.compile(r"invalid (octal )?escape sequence|with a literal|assertion is always true|is not callable|"
                                   r"is not subscriptable|indices must be")
_WARNINGS_LOCK = threading.Lock()


def parse_python(source: str) -> ast.Module:
    """ast.parse, whatever the host's warning filters: under -W error (as in our tests) Python turns
    a mere warning such as an invalid escape sequence into a SyntaxError, which would make valid
    code look broken. Only such an error is retried, with warnings ignored; the lock keeps two
    threads from interleaving catch_warnings, which saves and restores process-wide state."""
    try:
        return ast.parse(source)
    except SyntaxError as first:
        if not _WARNING_TURNED_ERROR.search(str(first.msg)):
            raise
        with _WARNINGS_LOCK, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return ast.parse(source)
            except SyntaxError:
                raise first from None


_SALVAGE_CONTINUATIONS = ("else", "elif", "except", "finally", "case", ")", "]", "}", "@")


def statement_lines(statement: ast.stmt) -> tuple[int, int]:
    """The first and last line a statement spans, its decorators included."""
    first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
    return first, statement.end_lineno or statement.lineno


def salvage(code: str) -> tuple[ast.Module, list[tuple[int, str]]]:
    """Parse what parses; return it and the top-level chunks that do not.

    A chunk starts at every line that begins in column 0 (except else/elif/except/...). The code
    is parsed as a whole; at each syntax error the chunk holding the error is set aside, what
    precedes it is parsed on its own (chunk by chunk if it still fails, since Python may report an
    error after its cause) and parsing resumes after it. Blank lines keep line numbers right.
    """
    lines = code.splitlines(keepends=True)
    starts = [0] + [
        index for index, line in enumerate(lines[1:], start=1)
        if line[:1] not in (" ", "\t", "\n", "\r", "#", "") and not line.lstrip().startswith(_SALVAGE_CONTINUATIONS)
    ]
    body: list[ast.stmt] = []
    broken: list[tuple[int, str]] = []

    def parse(begin: int, end: int) -> bool:
        text = "".join(lines[begin:end])
        if not text.strip():
            return True
        try:
            body.extend(parse_python("\n" * begin + text).body)
            return True
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False

    def chunk_of(line_index: int) -> tuple[int, int]:
        begin = max((s for s in starts if s <= line_index), default=0)
        end = min((s for s in starts if s > line_index), default=len(lines))
        return begin, end

    position, rounds = 0, 0
    while position < len(lines) and rounds < 200:
        rounds += 1
        text = "".join(lines[position:])
        try:
            body.extend(parse_python("\n" * position + text).body)
            break
        except SyntaxError as exc:
            error_line = min(max((exc.lineno or position + 1) - 1, position), len(lines) - 1)
        except (ValueError, RecursionError, MemoryError):
            error_line = position
        begin, end = chunk_of(error_line)
        begin = max(begin, position)
        if not parse(position, begin):
            for first, last in zip([s for s in starts if position <= s < begin], [s for s in starts if position < s <= begin] + [begin]):
                if not parse(first, last):
                    broken.append((first + 1, "".join(lines[first:last])))
        broken.append((begin + 1, "".join(lines[begin:end])))
        position = end
    else:
        if position < len(lines):
            broken.append((position + 1, "".join(lines[position:])))
    body.sort(key=lambda statement: statement.lineno)
    return ast.Module(body=body, type_ignores=[]), broken


_TOKEN_NAMES = {
    "dup2": "reverse-shell", "pty": "reverse-shell", "fork": "fork-bomb", "b64decode": "obfuscated-exec", "decompress": "obfuscated-exec",
    "fromhex": "obfuscated-exec", "unhexlify": "obfuscated-exec", "marshal": "obfuscated-exec", "setuid": "set-uid", "ctypes": "native-code",
    "system": "command-exec", "popen": "command-exec", "Popen": "command-exec", "check_output": "command-exec", "rmtree": "recursive-delete",
    "exec": "code-exec", "eval": "code-exec", "pickle": "deserialization", "socket": "network", "requests": "network", "urlopen": "network",
}


def token_hits(code: str, threats: ThreatList, first_line: int = 1, paths: SensitivePaths | None = None) -> list[Hit]:
    """Findings from the tokens of code that does not parse: names, strings, imports."""
    names: dict[str, int] = {}
    strings: list[tuple[int, int, str]] = []
    imports: list[tuple[int, str]] = []
    previous = ""
    for number, line in enumerate(code.splitlines(), start=first_line):
        if len(line) > 20_000:
            line = line[:20_000]
        try:
            tokens = list(_line_tokens(line))
        except RecursionError:
            tokens = []
        for kind, text, column in tokens:
            if kind == tokenize.NAME:
                names.setdefault(text, number)
                if previous in ("import", "from"):
                    imports.append((number, text))
            elif kind == tokenize.STRING:
                try:
                    value = ast.literal_eval(text)
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    value = text.strip("'\"")
                if isinstance(value, bytes):
                    value = value.decode("utf-8", "replace")
                if isinstance(value, str):
                    strings.append((number, column, value))
            previous = text if kind == tokenize.NAME else ""
    hits: list[Hit] = []
    sink = any(name in names for name in ("system", "popen", "Popen", "run", "call", "check_output", "spawn", "exec", "execv", "execl"))
    for number, column, text in strings:
        if rules.MINER_TEXT.search(text):
            hits.append(Hit("crypto-miner", number, column, f"mentions a mining pool or wallet: {clip(text)}", "MEDIUM"))
        for found in command_hits(text, 0, paths):
            if found.malicious and sink:
                hits.append(Hit(found.rule, number, column, f"{found.detail} (read from code that does not parse)", "MEDIUM"))
            elif found.malicious:
                hits.append(Hit("dangerous-command-text", number, column, f"holds a dangerous command: {found.detail}", "LOW"))
        if secret_label(text, paths) and any(n in names for n in ("socket", "requests", "urlopen", "post", "send", "sendall", "httpx")):
            hits.append(Hit("exfiltration", number, column, f"reads {secret_label(text, paths)} next to network calls (code does not parse)", "MEDIUM"))
    for name, rule in _TOKEN_NAMES.items():
        if name in names:
            hits.append(Hit(rule if rule in ("command-exec", "code-exec", "network", "set-uid", "native-code", "deserialization",
                                             "recursive-delete") else "parse-failed",
                            names[name], 0, f"uses `{name}` in code that does not parse", "LOW"))
    if "dup2" in names and "socket" in names:
        hits.append(Hit("reverse-shell", names["dup2"], 0, "duplicates descriptors next to a socket (code does not parse)", "MEDIUM"))
    if "fork" in names and "while" in names:
        hits.append(Hit("fork-bomb", names["fork"], 0, "forks next to a while loop (code does not parse)", "LOW"))
    if ({"exec", "eval", "compile"} & set(names)) and ({"b64decode", "decompress", "fromhex", "unhexlify", "loads", "rot13", "a2b_base64"} & set(names)):
        hits.append(Hit("obfuscated-exec", names.get("exec", names.get("eval", 0)), 0, "decodes and executes a payload (code does not parse)", "MEDIUM"))
    for number, name in imports:
        normal = normalise_package(name)
        if name not in sys.stdlib_module_names and normal in threats.packages:
            hits.append(Hit("known-threat-package", number, 0, f"imports `{name}`, a known-malicious package", "MEDIUM"))
    return hits


def _line_tokens(line: str) -> Iterable[tuple[int, str, int]]:
    reader = io.StringIO(line + "\n").readline
    try:
        for token in tokenize.generate_tokens(reader):
            yield token.type, token.string, token.start[1]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return
