"""The sensitive-path model (policies/sensitive_paths.yaml) once compiled: which paths are secret,
sensitive, outside the working directory or run at start-up, and at what level each operation on
them is rated. policy.py reads the file; the AST analyzer and the Semgrep rules' <<paths:...>>
placeholders ask this model.

Paths are matched in normal forms (path_forms): home folders spelled any way become ``~``, ``..``
is resolved, and parts known only at run time stay as UNKNOWN_PART.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from mai_safety.domain.levels import RiskLevel

OPERATIONS = ("read", "list", "write", "delete")
UNKNOWN_PART = "\ufffc"  # stands for a part of a path known only at run time (the AST analyzer's PLACEHOLDER)
_HOME_SPELLINGS = ("$HOME", "${HOME}", "%USERPROFILE%", "%HOMEPATH%", "$env:USERPROFILE")


def path_forms(path: str, *, unknown_base: bool = True) -> list[str]:
    """The normal forms under which a path (as a program spells it) is matched against the model.

    Home folders spelled any way become ``~`` (``/root`` is kept, and matched as ``~`` too); ``//``,
    ``.`` and ``..`` are resolved; a relative path that climbs out with ``..`` is read from the top,
    as a traversal would reach it; a path whose first part is unknown (``{base}/etc/shadow``) is also
    read from the top and from the home folder (``unknown_base``: for reads and listings, not for
    writes, where a program building a tree of its own is common). Unknown parts stay in the text as UNKNOWN_PART, which
    a glob's ``*`` matches and a literal name does not.
    """
    text = path.strip().strip("'\"").replace("\\", "/")
    if not text or len(text) > 4096:
        return []
    if text.startswith("file:"):  # sqlite3.connect("file:/path?mode=ro", uri=True)
        text = re.sub(r"^file:(//)?", "", text).split("?", 1)[0]
    for home in _HOME_SPELLINGS:
        if text.startswith(home):
            text = "~" + text[len(home):]
    text = re.sub(r"^/home/[^/]+(?=/|$)", "~", text)
    text = re.sub(r"^~[A-Za-z0-9_.-]+(?=/|$)", "~", text)
    text = re.sub(r"^[A-Za-z]:/Users/[^/]+(?=/|$)", "~", text)
    forms: list[str] = []
    if text.startswith("/"):
        forms.append(_resolve("/", text))
    elif text == "~" or text.startswith("~/"):
        forms.append(_resolve("~/", text[1:]))
    else:
        climbed = ".." in text.split("/")
        first, _, rest = text.partition("/")
        normal = posixpath.normpath(text)
        if climbed and (normal == ".." or normal.startswith("../") or first == UNKNOWN_PART):
            forms.append(_resolve("/", re.sub(r"^(\.\./)+|^\.\.$", "", normal)))
        elif unknown_base and first.strip(UNKNOWN_PART) == "" and rest and not climbed:
            forms.extend((_resolve("/", rest), _resolve("~/", rest)))
        forms.append(normal)
    # a home reached by climbing or from an unknown base (`{base}/home/ann/.aws`) is a home too
    forms = [re.sub(r"^/home/[^/]+(?=/|$)", "~", form) for form in forms]
    for form in list(forms):
        if form == "/root" or form.startswith("/root/"):
            forms.append("~" + form[5:])
    return forms


def _resolve(head: str, rest: str) -> str:
    resolved = posixpath.normpath("/" + rest.lstrip("/"))  # .. cannot climb above the top (or home)
    resolved = "/" + resolved.lstrip("/")
    if head == "/":
        return resolved
    return "~" if resolved == "/" else "~" + resolved


def glob_regex(glob: str) -> str:
    """A model glob as a regular expression over normal forms (Python and PCRE alike)."""
    out, index = [], 0
    while index < len(glob):
        if glob.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
        elif glob.startswith("/**", index) and index + 3 == len(glob):
            out.append("(?:/.*)?")
            index += 3
        elif glob.startswith("**", index):
            out.append(".*")
            index += 2
        elif glob[index] == "*":
            out.append("[^/]*")
            index += 1
        elif glob[index] == "?":
            out.append("[^/]")
            index += 1
        elif glob[index] == "[":
            end = glob.index("]", index)
            out.append("[" + glob[index + 1:end].replace("\\", "\\\\") + "]")
            index = end + 1
        else:
            out.append(re.escape(glob[index]))
            index += 1
    return "".join(out)


@dataclass(frozen=True)
class PathRating:
    """What the model says of one operation on one path."""

    level: RiskLevel
    name: str  # the entry's name, e.g. "the password hashes"
    secret: bool
    startup: bool
    form: str  # the normal form that matched


@dataclass(frozen=True)
class PathEntry:
    """One entry of the model: its globs compiled, and the level it names for each operation."""

    name: str
    globs: tuple[str, ...]
    pattern: re.Pattern[str]
    secret: bool
    startup: bool
    public: bool
    levels: dict[str, RiskLevel]


@dataclass(frozen=True)
class SensitivePaths:
    """The sensitive-path model (policies/sensitive_paths.yaml), compiled."""

    source: Path
    entries: tuple[PathEntry, ...]

    def rate(self, path: str, operation: str) -> PathRating | None:
        """The first entry that matches the path and names a level for ``operation``."""
        forms = path_forms(path, unknown_base=operation in ("read", "list"))
        if not forms:
            return None
        for entry in self.entries:
            level = entry.levels.get(operation)
            if level is None:
                continue
            for form in forms:
                if entry.pattern.fullmatch(form):
                    return PathRating(level, entry.name, entry.secret, entry.startup, form)
        return None

    def secret(self, path: str) -> str | None:
        """The entry name if reading ``path`` reads credentials (a secret entry rates the read)."""
        rating = self.rate(path, "read")
        return rating.name if rating is not None and rating.secret else None

    def outside(self, path: str) -> bool:
        """A file outside the working directory (a system place, the home folder, or reached by
        climbing with ``..``) whose read the model does not rate LOW: what ``<<paths:outside>>``
        spells for Semgrep."""
        forms = path_forms(path, unknown_base=False)
        if not forms or not forms[0].startswith(("/", "~")) or UNKNOWN_PART in forms[0].split("/")[0 if forms[0][0] == "~" else 1]:
            return False
        rating = self.rate(path, "read")
        return rating is None or rating.level > RiskLevel.LOW

    def startup(self, path: str) -> bool:
        rating = self.rate(path, "write")
        return rating is not None and rating.startup

    def observed(self, path: str, access: str, home: str) -> bool:
        """Whether a file the sandboxed code was seen opening (``access``: read or write) is one the
        model marks: a secret read, a start-up write, or any access it rates HIGH or above. ``home``:
        the sandbox's home folder, read as ``~`` (there, ``~/.config/autostart`` is under it)."""
        normal = posixpath.normpath(path)
        if normal == home or normal.startswith(home + "/"):
            normal = "~" + normal[len(home):]
        rating = self.rate(normal, "write" if access == "write" else "read")
        if rating is None:
            return False
        return (rating.secret and access == "read") or (rating.startup and access == "write") or rating.level >= RiskLevel.HIGH

    def semgrep_regex(self, kind: str) -> str:
        """A regular expression over paths *as a program spells them* (Semgrep sees string literals,
        not resolved paths), for the taint rules' sources and sinks:

          secret     entries marked secret (their read);
          sensitive  every entry whose read is MEDIUM or above, except public ones;
          outside    any absolute or home path, or climbing path, whose read the model rates
                     neither LOW nor secret (secrets have rules of their own);
          startup    entries marked startup (their write).

        Spellings covered: the path itself with any number of leading slashes, any prefix that
        climbs with ``..`` to it (``/var/www/../../etc/passwd``, ``../../etc/passwd``), and every
        spelling of the home folder for ``~/`` globs. Earlier entries outside the kind are carved
        out with a look-ahead, as the model's first-match order would.
        """
        operation = "write" if kind == "startup" else "read"

        def member(entry: PathEntry) -> bool:
            level = entry.levels.get(operation)
            if level is None:
                return False
            if kind == "secret":
                return entry.secret
            if kind == "startup":
                return entry.startup
            if kind == "sensitive":
                return level >= RiskLevel.MEDIUM and not entry.public
            return level >= RiskLevel.MEDIUM and not entry.secret  # outside: LOW and secret entries are carved out

        rated = [entry for entry in self.entries if entry.levels.get(operation) is not None]
        members = [entry for entry in rated if member(entry)]
        if kind == "outside":
            # system places, the home folder, and climbs out of the working directory
            include = r"(?:/|~|\$\{?HOME\b|%USERPROFILE%|[A-Za-z]:[\\/]|(?:.*/)?\.\./).*"
            exclude = [entry for entry in rated if not member(entry)]
        else:
            include = _spellings([glob for entry in members for glob in entry.globs]) or "(?!)"
            last = max((rated.index(entry) for entry in members), default=-1)
            exclude = [entry for entry in rated[:last] if not member(entry)]
        carve = _spellings([glob for entry in exclude for glob in entry.globs])
        return ("^(?!(?:" + carve + ")$)" if carve else "^") + "(?:" + include + ")$"


_HOME_SPELLED = r"(?:~[\w.-]*|\$HOME|\$\{HOME\}|/home/[^/]+|/root|%USERPROFILE%|[A-Za-z]:[\\/]Users[\\/][^\\/]+)"
_TOP_SPELLED = r"(?:/+|(?:.*/)?\.\./)"  # the top, or any climb out to it


def _spellings(globs: list[str]) -> str:
    """How a program may spell a path one of the globs matches, as one regular expression: the
    globs are grouped by how they start, so that each way of spelling the start is tried once."""
    top = [glob_regex(glob[1:]) for glob in globs if glob.startswith("/")]
    home = [glob_regex(glob[1:]) for glob in globs if glob == "~" or glob.startswith("~/")]
    anywhere = [glob_regex(glob[3:]) for glob in globs if glob.startswith("**/")]
    parts = []
    if top:
        parts.append(_TOP_SPELLED + "(?:" + "|".join(top) + ")")
    if home:
        parts.append(_HOME_SPELLED + "(?:" + "|".join(home) + ")")
    if anywhere:
        parts.append("(?:.*/)?(?:" + "|".join(anywhere) + ")")
    return "|".join(parts)
