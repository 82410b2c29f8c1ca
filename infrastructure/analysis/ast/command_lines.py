"""What a shell command line does that matters to us, for the AST analyzer.

The whole text is searched for what shows in any spelling (reverse shells, fork bombs, downloads
piped into a shell, credentials sent, history erased, redirections onto protected paths), then it
is split into segments and each segment's program is judged. Programs that run other programs are
unwrapped first: ``sudo``/``su``, wrappers like ``env`` and ``nohup``, and shells and interpreters
given code with ``-c``; ``pip`` is seen before ``python -m pip`` is taken for an interpreter. Every
other program goes to the rules of ``program_rules``.
"""

from __future__ import annotations

import re

from ..sensitive_paths import SensitivePaths
from . import rules
from .commands import Argv, CommandHit, command_segments, normalise_path, secret_label, write_target_hits
from .program_rules import program_hits


def command_hits(text: str, depth: int = 0, paths: SensitivePaths | None = None) -> list[CommandHit]:
    """What a shell command line does that matters to us."""
    hits: list[CommandHit] = []
    if depth > 3 or not text or not rules.COMMAND_HINT.search(text):
        return hits
    if rules.REVERSE_SHELL_TEXT.search(text):
        hits.append(CommandHit("reverse-shell", "opens a shell over a network connection", True))
    if rules.FORK_BOMB_TEXT.search(text):
        hits.append(CommandHit("fork-bomb", "contains a shell fork bomb", True))
    if rules.CURL_PIPE_SHELL.search(text):
        hits.append(CommandHit("remote-command-exec", "pipes a download straight into a shell or interpreter", True))
    lowered = text.lower()
    words_all = set(re.findall(r"[\w.+-]+", lowered))
    sent = re.sub(r"(?:\s-i|--identity-file|IdentityFile=)\s*\S+", " ", text)  # an ssh/scp login key is used, not sent
    if words_all & rules.NETWORK_TOOLS and any(secret_label(word, paths) for word in re.findall(r"[~/$][^\s'\"|;&<>]*|\.[\w.-]+/[^\s'\"|;&<>]*", sent)):
        hits.append(CommandHit("exfiltration", "sends credential files with a network tool", True))
    if re.search(r"\bhistory\s+-c\b|\bunset\s+HISTFILE\b|HISTFILE=/dev/null|\bSet-MpPreference\b.*-Disable|"
                 r"\bnetsh\s+advfirewall\s+set\s+\w+\s+state\s+off|\bsc(\.exe)?\s+(stop|config)\s+windefend",
                 text, re.IGNORECASE):
        hits.append(CommandHit("disable-security", "disables security tooling or erases the shell history", True))
    for redirect in re.finditer(r">>?\s*([~/$][^\s;&|]*)", text):
        target = normalise_path(redirect.group(1))
        hits.extend(write_target_hits(target, "a shell redirection", text))
    for words in command_segments(text):
        hits.extend(argv_hits(words, depth, paths))
    return hits


def argv_hits(words: list[str], depth: int, paths: SensitivePaths | None = None) -> list[CommandHit]:
    """What one program run with these words does: the command it runs, if it runs one, else its own."""
    if not words:
        return []
    argv = Argv.of(words, depth, paths)
    for unwrap in (_privilege_escalation, _wrapper, _pip, _interpreter):
        found = unwrap(argv)
        if found is not None:
            return found
    return program_hits(argv)


def _privilege_escalation(c: Argv) -> list[CommandHit] | None:
    """``sudo rm -rf /``: privileges gained, and what runs with them."""
    if c.name not in rules.PRIVILEGE_ESCALATION:
        return None
    hits = [CommandHit("privilege-escalation", f"runs `{c.name}` to gain privileges", False)]
    rest = [word for word in c.args if not word.startswith("-")]
    if c.name in ("su", "runuser") and "-c" in c.args:
        rest = c.args[c.args.index("-c") + 1:]
    hits.extend(argv_hits(rest, c.depth + 1, c.paths) if rest else [])
    return hits


_WRAPPERS = ("env", "nohup", "exec", "time", "nice", "ionice", "timeout", "stdbuf", "xargs", "command", "builtin")


def _wrapper(c: Argv) -> list[CommandHit] | None:
    """``env X=1 nohup timeout 5s cmd``: only ``cmd`` matters."""
    if c.name not in _WRAPPERS or not c.args:
        return None
    rest = c.args
    while rest and (rest[0].startswith("-") or "=" in rest[0] or re.fullmatch(r"\d+[smhd]?", rest[0])):
        rest = rest[1:]
    return argv_hits(rest, c.depth + 1, c.paths)


def _pip(c: Argv) -> list[CommandHit] | None:
    if not (re.fullmatch(r"pip[0-9.]*", c.name) or ("-m" in c.args[:2] and any(re.fullmatch(r"pip[0-9.]*", word) for word in c.args[1:3]))):
        return None
    return [CommandHit("package-install", "installs packages at run time", False)] if "install" in c.lowered else []


def _interpreter(c: Argv) -> list[CommandHit] | None:
    """``sh -c '...'``, ``python -c '...'``, ``perl -e '...'``: the code given is judged in turn."""
    python = re.fullmatch(r"python[0-9.]*", c.name)
    if not (c.name in rules.SHELLS or python or re.fullmatch(r"perl|ruby|php|node", c.name)):
        return None
    args = c.args
    if not ("-c" in args or "-e" in args or "-r" in args or "/c" in c.lowered or "-command" in c.lowered):
        return []
    flag = next(i for i, word in enumerate(args) if word in ("-c", "-e", "-r") or word.lower() in ("/c", "-command"))
    inner = " ".join(args[flag + 1:])
    hits = command_hits(inner, c.depth + 1, c.paths)
    if python and re.search(r"\bsocket\b", inner) and re.search(r"dup2|pty|subprocess|/bin/", inner):
        hits.append(CommandHit("reverse-shell", "runs a Python one-liner that wires a socket to a shell", True))
    return hits
