"""What shell command words and file paths mean, for the AST analyzer.

Paths are normalised (every spelling of a home folder becomes ``~``) and classified: secrets,
top-level folders a wipe targets, system paths. Command lines are split into segments (at ; && ||
| & newlines and $( ) and words, and what a write to a path means is named. What a command line
does is judged in ``command_lines``, program by program in ``program_rules``.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ..sensitive_paths import SensitivePaths
from . import rules

PLACEHOLDER = "\ufffc"  # stands for an unknown part of a partly known string


# --- paths ---------------------------------------------------------------------------------


def normalise_path(path: str) -> str:
    """Home folders spelled any way become ``~``; ``//``, ``.`` and ``..`` are resolved."""
    text = path.strip().strip("'\"").replace("\\", "/")
    for home in ("$HOME", "${HOME}", "%USERPROFILE%", "%HOMEPATH%", "$env:USERPROFILE"):
        if text.startswith(home):
            text = "~" + text[len(home):]
    text = re.sub(r"^/home/[^/]+(?=/|$)", "~", text)
    text = re.sub(r"^/root(?=/|$)", "~", text)
    text = re.sub(r"^~[A-Za-z0-9_.-]+(?=/|$)", "~", text)
    text = re.sub(r"^[A-Za-z]:/Users/[^/]+(?=/|$)", "~", text)
    if text.startswith(("/", "~")):
        head, rest = ("/", text[1:]) if text.startswith("/") else ("~/", text[1:].lstrip("/"))
        rest = posixpath.normpath("/" + rest)[1:] if rest else ""
        text = (head + rest) if rest else head.rstrip("/") or "/"
        if text == "~/":
            text = "~"
    return text


def secret_label(path: str, paths: SensitivePaths | None) -> str | None:
    """What credentials reading ``path`` reads, by the sensitive-path model (None: none)."""
    return paths.secret(path) if paths is not None else None


def wipe_target(path: str) -> bool:
    """The whole file system, a home folder, or a top-level system folder."""
    normal = normalise_path(path).rstrip("*").rstrip("/") or "/"
    if normal in ("/", "~", "", "/home", "/Users", "/mnt", "/media"):
        return True
    if re.fullmatch(r"[A-Za-z]:(/(Windows|Users|Program Files)?)?", normal):
        return True
    parts = normal.strip("/").split("/")
    return normal.startswith("/") and len(parts) == 1 and parts[0] in rules.SYSTEM_TOP


def system_path(path: str) -> bool:
    normal = normalise_path(path)
    if rules.HARMLESS_DEVICES.match(normal):
        return False
    parts = normal.strip("/").split("/")
    return normal.startswith("/") and bool(parts) and parts[0] in rules.SYSTEM_TOP


def outside_working_dir(path: str) -> bool:
    normal = normalise_path(path)
    if rules.HARMLESS_DEVICES.match(normal):
        return False
    if normal.startswith(("/", "~")) or re.match(r"^[A-Za-z]:/", normal):
        return True
    return posixpath.normpath(normal).startswith("..")


# --- shell command text ------------------------------------------------------------------------

_READING_PROGRAMS = frozenset({"cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "strings", "xxd", "od", "hexdump", "base64",
                               "tac", "nl", "sort", "uniq", "wc", "awk", "sed", "cut", "diff", "md5sum", "sha256sum", "file", "tar", "zip",
                               "gzip", "cp", "rsync", "scp", "type", "get-content"})
_LISTING_PROGRAMS = frozenset({"ls", "dir", "find", "tree", "du", "locate", "get-childitem", "lsattr"})


def command_path_ops(words: list[str]) -> list[tuple[str, str]]:
    """(operation, path) for each path a command line reads or lists: ``cat /etc/passwd`` reads it,
    ``ls /root`` lists it. ``cp``'s last argument is where it writes, not a read."""
    if not words:
        return []
    name = program_name(words[0])
    targets = [word for word in words[1:] if word.startswith(("/", "~", "$HOME", "../")) and not word.startswith("//")]
    if name in ("cp", "rsync", "scp", "tar", "zip") and len(targets) > 1:
        targets = targets[:-1] if name != "tar" else targets
    if name in _READING_PROGRAMS:
        return [("read", target) for target in targets]
    if name in _LISTING_PROGRAMS:
        return [("list", target) for target in targets]
    return []


_SEGMENT_SPLIT = re.compile(r"\|\||&&|[;|&\n`]|\$\(|\)")


def command_segments(text: str) -> list[list[str]]:
    cleaned = text.replace("'", " ").replace('"', " ").replace("\\\n", " ")
    out = []
    for segment in _SEGMENT_SPLIT.split(cleaned):
        words = segment.split()
        while words and ("=" in words[0] and not words[0].startswith("-")):  # VAR=value cmd
            words = words[1:]
        if words:
            out.append(words)
    return out


def program_name(word: str) -> str:
    return word.rsplit("/", 1)[-1].lower()


@dataclass(frozen=True)
class CommandHit:
    rule: str
    detail: str
    malicious: bool  # reported even when the text is not (yet) seen reaching a command


def write_target_hits(target: str, how: str, text: str = "") -> list[CommandHit]:
    if rules.SECURITY_PATHS.search(target):
        return [CommandHit("disable-security", f"overwrites {target} ({how}), which disables protection or erases logs", True)]
    if rules.PERSISTENCE_BACKDOOR_PATHS.search(target):
        return [CommandHit("persistence-backdoor", f"writes {target} ({how})", True)]
    if rules.PRIVILEGED_DEVICES.match(target):
        return [CommandHit("destructive-wipe", f"writes straight to the disk device {target} ({how})", True)]
    if rules.PERSISTENCE_PATHS.search(target):
        return [CommandHit("persistence", f"writes {target} ({how}), which runs code at start-up", False)]
    if system_path(target):
        return [CommandHit("system-path-write", f"writes {target} ({how})", False)]
    return []


@dataclass(frozen=True)
class Argv:
    """One program's words, as the rules read them: its name, its arguments, and those lowered."""

    words: list[str]
    name: str
    args: list[str]
    lowered: list[str]
    depth: int
    paths: SensitivePaths | None

    @classmethod
    def of(cls, words: list[str], depth: int, paths: SensitivePaths | None) -> Argv:
        args = words[1:]
        return cls(words, program_name(words[0]), args, [word.lower() for word in args], depth, paths)

    @property
    def positional(self) -> list[str]:
        """The arguments that are not options."""
        return [word for word in self.args if not word.startswith("-")]
