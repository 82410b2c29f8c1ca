"""The abstract values the evaluator computes for expressions, and what can be read off them.

A value is what an expression may be at run time, as far as the analysis can tell without running it: a
string, bytes or number folded from constants, a sequence, one of several alternatives, a reference to a
module or function, an instance some call returned, code, a functools.partial, or unknown. Each carries
flags saying where it came from (built, encoded, net, secret...). The helpers below read strings, paths,
file modes and command lines off a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from . import rules
from .commands import PLACEHOLDER

MAX_VALUE_CHARS = 1 << 20  # a folded string or bytes value longer than this is left unknown
MAX_FOLD_DEPTH = 48  # nested expressions deeper than this are left unknown ("opaque")
MAX_FOLD_STEPS = 400_000  # evaluator steps per analysis; beyond, everything is unknown
MAX_ALTERNATIVES = 64  # possible values kept for one name


NO_FLAGS: frozenset[str] = frozenset()
# built: assembled from constants; encoded: decoded, decompressed, reversed or made of char codes;
# net: came from the network; secret: credentials or the whole environment; env-secret: one
# secret-looking environment variable; sockfd: a socket or its descriptor; opaque: beyond the
# evaluator's limits; partial: a string with unknown parts (PLACEHOLDER); obfname: a name assembled at run
# time; indirect: reached through getattr/__import__/globals(); self: this program's own file.
ENCODING_FLAGS = frozenset({"encoded", "opaque"})


@dataclass(frozen=True, slots=True)
class Value:
    flags: frozenset[str] = NO_FLAGS


@dataclass(frozen=True, slots=True)
class Str(Value):
    value: str = ""


@dataclass(frozen=True, slots=True)
class Bytes(Value):
    value: bytes = b""


@dataclass(frozen=True, slots=True)
class Num(Value):
    value: Any = 0


@dataclass(frozen=True, slots=True)
class Seq(Value):
    items: tuple[Value, ...] = ()


@dataclass(frozen=True, slots=True)
class DictSeq(Seq):
    """A dict literal: ``items`` are its values (as before), ``keys`` its keys."""

    keys: tuple[Value, ...] = ()


@dataclass(frozen=True, slots=True)
class Alternatives(Value):
    options: tuple[Value, ...] = ()


@dataclass(frozen=True, slots=True)
class Ref(Value):
    """A module, a function, or an attribute reached from one; ``recv`` is the bound object."""

    qual: str = ""
    recv: Value | None = None


@dataclass(frozen=True, slots=True)
class Instance(Value):
    """What calling ``kind`` returned; ``path`` for file-like and pathlib objects."""

    kind: str = ""
    path: str | None = None


@dataclass(frozen=True, slots=True)
class Code(Value):
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Partial(Value):
    """functools.partial(func, *args): calling it calls ``func`` with ``args`` first."""

    func: Value = field(default_factory=lambda: UNKNOWN)
    args: tuple[Value, ...] = ()


@dataclass(frozen=True, slots=True)
class Unknown(Value):
    pass


@dataclass(frozen=True, slots=True)
class Opaque(Value):
    """A value the analysis cannot resolve that may reach a dangerous capability (opacity.py):
    ``what`` says what could not be seen, for the finding at the place it is used."""

    what: str = ""


UNKNOWN = Unknown()


def with_flags(value: Value, flags: frozenset[str]) -> Value:
    if not flags or flags <= value.flags:
        return value
    merged = value.flags | flags
    if isinstance(value, Str):
        return Str(merged, value.value)
    if isinstance(value, Bytes):
        return Bytes(merged, value.value)
    if isinstance(value, Num):
        return Num(merged, value.value)
    if isinstance(value, Seq):
        return Seq(merged, value.items)
    if isinstance(value, Alternatives):
        return Alternatives(merged, value.options)
    if isinstance(value, Ref):
        return Ref(merged, value.qual, value.recv)
    if isinstance(value, Instance):
        return Instance(merged, value.kind, value.path)
    if isinstance(value, Code):
        return Code(merged, value.source)
    if isinstance(value, Partial):
        return Partial(merged, value.func, value.args)
    if isinstance(value, Opaque):
        return Opaque(merged, value.what)
    return Unknown(merged)


def alternatives(flags: frozenset[str], options: Iterable[Value]) -> Value:
    """Alternatives kept flat (Alternatives of Alternatives are opaque to what follows) and without repeats."""
    flat: list[Value] = []
    for option in options:
        flat.extend(option.options if isinstance(option, Alternatives) else (option,))
    unique = tuple(dict.fromkeys(flat))[:MAX_ALTERNATIVES]
    return unique[0] if len(unique) == 1 and not (flags - unique[0].flags) else Alternatives(flags, unique)


def flags_of(values: Iterable[Value]) -> frozenset[str]:
    out: frozenset[str] = NO_FLAGS
    for value in values:
        if value.flags:
            out = out | value.flags
        if isinstance(value, Seq):
            out = out | flags_of(value.items)
    return out


def strings_of(value: Value, limit: int = 256) -> list[str]:
    """Every string a value may be: itself, its alternatives, the items of a sequence joined."""
    if isinstance(value, Str):
        return [value.value]
    if isinstance(value, Bytes):
        return [value.value.decode("utf-8", "replace")]
    if isinstance(value, Alternatives):
        out: list[str] = []
        for option in value.options[:limit]:
            out.extend(strings_of(option, limit))
        return out
    if isinstance(value, Instance) and value.path is not None:
        return [value.path]
    return []


def canonical(qual: str) -> str:
    for prefix, replacement in rules.CANONICAL_PREFIXES:
        if qual.startswith(prefix):
            return replacement + qual[len(prefix):]
    return qual


def truth_of(value: Value) -> bool | None:
    if isinstance(value, (Str, Bytes, Num)):
        return bool(value.value)
    if isinstance(value, Seq):
        return bool(value.items)
    if isinstance(value, (Ref, Instance, Code)):
        return True
    return None


def climbs_up(value: Value) -> bool:
    texts = strings_of(value)
    return bool(texts) and all(text.rstrip("/").endswith("/..") or text == ".." for text in texts)


def mode_letters(mode: Value | None) -> str:
    """The letters of a file mode, of every value it may have (`"a" if exists else "w"`)."""
    if isinstance(mode, Str):
        return mode.value
    if isinstance(mode, Alternatives):
        return "".join(option.value for option in mode.options if isinstance(option, Str))
    return ""


def folded_strings(value: Value, limit: int = 64, depth: int = 0) -> list[str]:
    """The strings in a value that were assembled or decoded, which the source does not show as such."""
    if isinstance(value, (Str, Bytes)):
        return strings_of(value) if value.flags & {"built", "encoded"} else []
    if depth > 2:
        return []
    if isinstance(value, Seq):
        inherited = value.flags & {"built", "encoded"}
        return [text for item in value.items[:limit] for text in folded_strings(with_flags(item, inherited), limit, depth + 1)]
    if isinstance(value, Alternatives):
        return [text for option in value.options[:limit] for text in folded_strings(option, limit, depth + 1)]
    return []


def join_path(parts: list[str]) -> str:
    """os.path.join of the parts (an empty first part adds nothing, an absolute part restarts)."""
    path = ""
    for part in parts:
        path = part if part.startswith("/") or not path else f"{path.rstrip('/')}/{part}"
    return path


def wildcards_unknown(pattern: str) -> str:
    """A glob pattern as a path with unknown parts: what it may match, for the sensitive-path model."""
    return re.sub(r"\*\*|\*|\?|\[[^\]]*\]", PLACEHOLDER, pattern)


def listed_folder(text: str) -> str:
    """The folder a listing reads: a glob pattern's part before its first wildcard."""
    parts = text.split("/")
    for index, part in enumerate(parts):
        if any(mark in part for mark in "*?[") :
            return "/".join(parts[:index]) or ("/" if text.startswith("/") else ".")
    return text


def command_words(value: Value) -> list[str]:
    texts = command_texts(value)
    out = []
    for text, argv in texts:
        out.extend(argv or text.split())
    return out


def command_texts(value: Value) -> list[tuple[str, list[str]]]:
    """(text, argv) pairs: a shell string has an empty argv; an argument list has both."""
    if isinstance(value, Str):
        return [(value.value, [])]
    if isinstance(value, Bytes):
        return [(value.value.decode("utf-8", "replace"), [])]
    if isinstance(value, Seq):
        argvs: list[list[str]] = [[]]
        for item in value.items:  # ["find", d, "-delete"] for each folder d a loop gives
            if isinstance(item, Alternatives) and 0 < len(item.options) <= 16 and len(argvs) * len(item.options) <= 16:
                words = [option.value if isinstance(option, Str) else PLACEHOLDER for option in item.options]
                argvs = [argv + [word] for argv in argvs for word in dict.fromkeys(words)]
            else:
                argvs = [argv + [item.value if isinstance(item, Str) else PLACEHOLDER] for argv in argvs]
        return [(" ".join(argv), argv) for argv in argvs]
    if isinstance(value, Alternatives):
        out = []
        for option in value.options:
            out.extend(command_texts(option))
        return out
    return []


def iterate(value: Value) -> list[Value] | None:
    if isinstance(value, Alternatives) and len(value.options) == 1:  # a parameter with one caller: what it passes
        return iterate(with_flags(value.options[0], value.flags))
    if isinstance(value, DictSeq):  # iterating a dict gives its keys
        return [with_flags(key, value.flags) for key in value.keys]
    if isinstance(value, Seq):
        return [with_flags(item, value.flags) for item in value.items]
    if isinstance(value, Str):
        return [Str(value.flags, ch) for ch in value.value]
    if isinstance(value, Bytes):
        return [Num(value.flags, b) for b in value.value]
    return None


def iter_value(iterable: Value) -> Value:
    if isinstance(iterable, Alternatives) and iterable.options and len(iterable.options) <= 8:
        each = tuple(iter_value(option) for option in iterable.options)
        if all(isinstance(item, (Instance, Str, Seq)) for item in each):
            return Alternatives(iterable.flags, each)
    if isinstance(iterable, Instance) and iterable.kind == "tuple:socket.accept":
        return iterable
    if isinstance(iterable, Instance) and iterable.kind in ("os.walk", "os.fwalk") and iterable.path is not None:
        return Seq(iterable.flags, (Str(iterable.flags, iterable.path), UNKNOWN, UNKNOWN))  # (dirpath, dirnames, filenames)
    if isinstance(iterable, Instance) and iterable.kind == "os.scandir" and iterable.path is not None:
        return Instance(iterable.flags, "os.DirEntry", f"{iterable.path.rstrip('/')}/{PLACEHOLDER}")
    if isinstance(iterable, Instance) and iterable.kind == "pwd.all":
        return Instance(NO_FLAGS, "pwd.struct_passwd")
    if isinstance(iterable, Instance) and iterable.kind == "psutil.process_iter":
        return Instance(frozenset({"foreignproc"}), "psutil.Process")
    if isinstance(iterable, Instance) and iterable.kind == "psutil.Process:own#children":
        return Instance(NO_FLAGS, "psutil.Process:own")
    if isinstance(iterable, Instance) and iterable.kind == "pathlib.Path#iter":
        return Instance(iterable.flags, "pathlib.Path", iterable.path)
    return Unknown(iterable.flags - {"sockfd", "obfname", "indirect"})


def own_process(value: Value) -> bool:
    """A process object or pid of this program or of a child it started."""
    if isinstance(value, Alternatives):
        return bool(value.options) and all(own_process(option) for option in value.options)
    if isinstance(value, Instance) and (value.kind in rules.CHILD_MAKERS or value.kind.startswith("psutil.Process:own")):
        return True
    return "ownpid" in value.flags


def foreign_process(value: Value | None) -> bool:
    """A process the program found rather than started (psutil's enumeration, a pid it was given)."""
    if value is None:
        return False
    if isinstance(value, Alternatives):
        return "foreignproc" in value.flags or any(foreign_process(option) for option in value.options)
    if isinstance(value, Ref) and value.recv is not None and foreign_process(value.recv):
        return True
    return "foreignproc" in value.flags
