"""Our own analyzer over Python's ast, for what Bandit and Semgrep do not see.

It resolves aliases and indirection (``from os import system as s``, ``getattr(os, 'sys'+'tem')``,
``__import__('o'+'s')``, ``importlib.import_module``, ``globals()['__builtins__']``), folds the
building of constant strings (concatenation, join, f-strings, %, format, slicing and reversal,
``chr`` lists, ``bytes.fromhex``, base64/binascii/codecs/zlib/gzip/bz2/lzma decoding), and follows
a few kinds of data through variables: what came from the network, secrets, socket descriptors.
With that it recognises behaviour rather than spellings: a socket wired to a shell, secrets read
and sent, wipes, fork bombs, miners, security tooling switched off, encoded payloads executed, and
the privileged and risky calls below them. Code handed to exec/eval/compile is analysed in turn.

It never trusts the input: the walk over the tree is iterative (no recursion on the tree's
depth), the evaluator's recursion is bounded, folded values are capped in size, RecursionError and
MemoryError from the parser become findings, and code that does not parse is still read: the
parts that parse on their own are analysed as usual and the rest is scanned token by token.

The analysis is deliberately flow-insensitive in places (one environment for all scopes, loops
seen once); it errs towards reporting. Levels are the policy's (policies/analysis.yaml). What is
looked for is listed in ast_rules.py; what shell command text and paths mean is ast_commands.py.
"""

from __future__ import annotations

import ast
import base64
import builtins
import binascii
import bz2
import codecs
import io
import lzma
import posixpath
import re
import sys
import threading
import tokenize
import warnings
import zlib
from dataclasses import dataclass, field
from typing import Any, Iterable

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.assessment import Finding, Submission
from mai_safety.domain.levels import Provenance, RiskLevel

from . import rules as R
from ..policy import AstPolicy, SensitivePaths, ThreatList, normalise_package, path_forms
from .commands import (
    PH,
    CommandHit,
    argv_hits,
    program_name,
    command_path_ops,
    command_segments,
    command_hits,
    normalise_path,
    outside_working_dir,
    secret_label,
    system_path,
    wipe_target,
)
from ..threat_hashes import file_digest, line_digests

# Limits that keep a hostile program from making the analysis itself expensive.
MAX_VALUE_CHARS = 1 << 20  # a folded string or bytes value longer than this is left unknown
MAX_FOLD_DEPTH = 48  # nested expressions deeper than this are left unknown ("opaque")
MAX_FOLD_STEPS = 400_000  # evaluator steps per analysis; beyond, everything is unknown
MAX_ALTERNATIVES = 64  # possible values kept for one name
MAX_PAYLOAD_DEPTH = 3  # exec("exec('...')") is followed this many levels deep

# --- values of the evaluator -----------------------------------------------------------------

NO_FLAGS: frozenset[str] = frozenset()
# built: assembled from constants; encoded: decoded, decompressed, reversed or made of char codes;
# net: came from the network; secret: credentials or the whole environment; env-secret: one
# secret-looking environment variable; sockfd: a socket or its descriptor; opaque: beyond the
# evaluator's limits; partial: a string with unknown parts (PH); obfname: a name assembled at run
# time; indirect: reached through getattr/__import__/globals(); self: this program's own file.
ENCODING_FLAGS = frozenset({"encoded", "opaque"})


@dataclass(frozen=True, slots=True)
class V:
    flags: frozenset[str] = NO_FLAGS


@dataclass(frozen=True, slots=True)
class Str(V):
    value: str = ""


@dataclass(frozen=True, slots=True)
class Bytes(V):
    value: bytes = b""


@dataclass(frozen=True, slots=True)
class Num(V):
    value: Any = 0


@dataclass(frozen=True, slots=True)
class Seq(V):
    items: tuple[V, ...] = ()


@dataclass(frozen=True, slots=True)
class DictSeq(Seq):
    """A dict literal: ``items`` are its values (as before), ``keys`` its keys."""

    keys: tuple[V, ...] = ()


@dataclass(frozen=True, slots=True)
class Alt(V):
    options: tuple[V, ...] = ()


@dataclass(frozen=True, slots=True)
class Ref(V):
    """A module, a function, or an attribute reached from one; ``recv`` is the bound object."""

    qual: str = ""
    recv: V | None = None


@dataclass(frozen=True, slots=True)
class Inst(V):
    """What calling ``kind`` returned; ``path`` for file-like and pathlib objects."""

    kind: str = ""
    path: str | None = None


@dataclass(frozen=True, slots=True)
class Code(V):
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Partial(V):
    """functools.partial(func, *args): calling it calls ``func`` with ``args`` first."""

    func: V = field(default_factory=lambda: UNKNOWN)
    args: tuple[V, ...] = ()


@dataclass(frozen=True, slots=True)
class Unknown(V):
    pass


UNKNOWN = Unknown()


def _with(value: V, flags: frozenset[str]) -> V:
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
    if isinstance(value, Alt):
        return Alt(merged, value.options)
    if isinstance(value, Ref):
        return Ref(merged, value.qual, value.recv)
    if isinstance(value, Inst):
        return Inst(merged, value.kind, value.path)
    if isinstance(value, Code):
        return Code(merged, value.source)
    if isinstance(value, Partial):
        return Partial(merged, value.func, value.args)
    return Unknown(merged)


def _alt(flags: frozenset[str], options: Iterable[V]) -> V:
    """Alternatives kept flat (an Alt of Alts is opaque to what follows) and without repeats."""
    flat: list[V] = []
    for option in options:
        flat.extend(option.options if isinstance(option, Alt) else (option,))
    unique = tuple(dict.fromkeys(flat))[:MAX_ALTERNATIVES]
    return unique[0] if len(unique) == 1 and not (flags - unique[0].flags) else Alt(flags, unique)


def _flags_of(values: Iterable[V]) -> frozenset[str]:
    out: frozenset[str] = NO_FLAGS
    for value in values:
        if value.flags:
            out = out | value.flags
        if isinstance(value, Seq):
            out = out | _flags_of(value.items)
    return out


def _strings(value: V, limit: int = 256) -> list[str]:
    """Every string a value may be: itself, its alternatives, the items of a sequence joined."""
    if isinstance(value, Str):
        return [value.value]
    if isinstance(value, Bytes):
        return [value.value.decode("utf-8", "replace")]
    if isinstance(value, Alt):
        out: list[str] = []
        for option in value.options[:limit]:
            out.extend(_strings(option, limit))
        return out
    if isinstance(value, Inst) and value.path is not None:
        return [value.path]
    return []


def _canonical(qual: str) -> str:
    for prefix, replacement in R.CANONICAL_PREFIXES:
        if qual.startswith(prefix):
            return replacement + qual[len(prefix):]
    return qual


def _truthy(value: V) -> bool | None:
    if isinstance(value, (Str, Bytes, Num)):
        return bool(value.value)
    if isinstance(value, Seq):
        return bool(value.items)
    if isinstance(value, (Ref, Inst, Code)):
        return True
    return None


# --- the analyzer --------------------------------------------------------------------------


@dataclass
class Hit:
    rule: str
    line: int
    column: int
    detail: str
    confidence: str = "HIGH"
    level: RiskLevel | None = None  # the sensitive-path model's level; None: the policy's level for the rule


@dataclass
class _Loop:
    node: ast.AST
    infinite: bool
    bound: int | None  # known iteration count, None if unknown
    sweep: str | None = None  # the top-level folder a walk/glob loop runs over
    kinds: set[str] = field(default_factory=set)
    outside: str | None = None  # a folder outside the working directory (not scratch) a walk/glob loop runs over


@dataclass(frozen=True)
class _Ctx:
    loops: tuple[_Loop, ...] = ()
    func: str | None = None
    block_depth: int = 0


_LOOP_NODES = (ast.For, ast.AsyncFor, ast.While)
_BLOCK_NODES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef,
                ast.ClassDef, ast.Match) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_BUILTIN_NAMES = frozenset(vars(builtins))
_COUNTED = {ast.For: "loops", ast.AsyncFor: "loops", ast.While: "loops", ast.comprehension: "loops", ast.Import: "imports",
            ast.ImportFrom: "imports", ast.Call: "calls", ast.FunctionDef: "functions", ast.AsyncFunctionDef: "functions",
            ast.Lambda: "functions", ast.ClassDef: "classes"}
_NOT_WALKED = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def _children(node: ast.AST) -> list[ast.AST]:
    """Child nodes worth visiting: ast.iter_child_nodes without Load()/Add()-like markers."""
    out = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST) and not isinstance(item, _NOT_WALKED))
        elif isinstance(value, ast.AST) and not isinstance(value, _NOT_WALKED):
            out.append(value)
    return out


class _Analysis:
    """One run over one tree. Two ordered passes: the first learns names, the second judges."""

    def __init__(self, threats: ThreatList, depth: int = 0, paths: SensitivePaths | None = None) -> None:
        self.threats = threats
        self.paths = paths
        self.depth = depth
        self.makes_children = False
        self.attrs: dict[str, V] = {}  # `self.x = ...`, by attribute name
        self.class_attrs: set[str] = set()  # names assigned in a class body
        self.classes: set[str] = set()
        self.net_methods: set[int] = set()  # methods whose first parameter is a network handler (socketserver)
        self.http_methods: set[int] = set()  # methods of http.server handlers: self holds the request, not a raw socket
        self.returns: dict[str, dict[int, V]] = {}  # what each local function returns, by return statement
        self.arg_defaults: dict[str, V] = {}  # argparse destinations and their defaults
        self.own_pid_files: set[str] = set()  # files the program writes its own pid into
        self.mocked: set[str] = set()  # functions the program replaces with mocks (mock.patch, monkeypatch.setattr)
        self.writes_compose = False  # the program writes a compose file or Dockerfile itself
        self.cwd: str | None = None  # where os.chdir went, if it went somewhere known
        self.read_names: set[tuple[str | None, str]] = set()
        self.handed: set[str] = set()  # local functions handed to map/submit (run over a list)  # (function, how the code names a file it reads)
        self.env: dict[str, V] = {}
        self.star_modules: list[str] = []
        self.hits: list[Hit] = []
        self.steps = 0
        self.memo: dict[int, V] | None = None
        self.pass_no = 1
        # facts gathered for the rules that need two things to happen in one program
        self.func_kinds: dict[str, set[str]] = {}
        self.func_calls: dict[str, set[str]] = {}
        self.call_sites: dict[str, list[tuple[list[V], dict[str, V]]]] = {}
        self.local_funcs: dict[str, ast.AST] = {}
        self.loops: list[_Loop] = []
        self.secret_reads: list[tuple[ast.AST, str]] = []
        self.net_sends: list[ast.AST] = []
        self.socket_connects: list[ast.AST] = []
        self.shell_spawns: list[ast.AST] = []
        self.command_sinks: list[ast.AST] = []
        self.deferred_text: list[tuple[ast.AST, CommandHit]] = []
        self.security_names: list[ast.AST] = []
        self.kill_calls: list[ast.AST] = []
        self.native: list[ast.AST] = []
        self.exec_memory_names: list[ast.AST] = []
        self.clipboard: list[ast.AST] = []
        self.wallet_texts: list[ast.AST] = []
        self.counts = {"loops": 0, "imports": 0, "calls": 0, "functions": 0, "classes": 0}
        self.max_block_depth = 0
        self.max_expr_depth = 0

    # ---- evaluation ------------------------------------------------------------------------

    def ev(self, node: ast.AST | None, depth: int = 0) -> V:
        if node is None:
            return UNKNOWN
        memo = self.memo
        if memo is not None:
            key = id(node)
            found = memo.get(key)
            if found is not None:
                return found
        self.steps += 1
        if depth > MAX_FOLD_DEPTH or self.steps > MAX_FOLD_STEPS:
            value: V = Unknown(frozenset({"opaque"}))
        else:
            try:
                value = self._ev(node, depth + 1)
            except (ValueError, TypeError, OverflowError, MemoryError, UnicodeError, IndexError, KeyError, ZeroDivisionError,
                    binascii.Error, zlib.error, lzma.LZMAError, EOFError, OSError, AttributeError, RecursionError):
                value = UNKNOWN
        if memo is not None:
            memo[id(node)] = value
        return value

    def _ev(self, node: ast.AST, d: int) -> V:
        if isinstance(node, ast.Constant):
            c = node.value
            if isinstance(c, str):
                return Str(NO_FLAGS, c)
            if isinstance(c, bytes):
                return Bytes(NO_FLAGS, c)
            if isinstance(c, (int, float, bool)) or c is None:
                return Num(NO_FLAGS, c)
            return UNKNOWN
        if isinstance(node, ast.Name):
            return self._name(node.id)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                known = self.attrs.get(node.attr)
                if known is None and node.attr in self.class_attrs:
                    known = self.env.get(node.attr)
                if known is not None:
                    return known
            return self._attribute(self.ev(node.value, d), node.attr)
        if isinstance(node, ast.Call):
            func = self.ev(node.func, d)
            args = self._arguments(node, d)
            kwargs = {k.arg: self.ev(k.value, d) for k in node.keywords if k.arg}
            spread = [self.ev(k.value, d) for k in node.keywords if not k.arg]
            return self._call(func, args, kwargs, spread)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                operands = []
                current: ast.AST = node
                while isinstance(current, ast.BinOp) and isinstance(current.op, ast.Add) and len(operands) < 100_000:
                    operands.append(current.right)
                    current = current.left
                operands.append(current)
                values = [self.ev(o, d) for o in reversed(operands)]
                result = values[0]
                for value in values[1:]:
                    result = self._binop(ast.Add(), result, value)
                return result
            return self._binop(node.op, self.ev(node.left, d), self.ev(node.right, d))
        if isinstance(node, ast.JoinedStr):
            texts: list[str] = [""]  # every text the f-string may be, for alternatives of its parts
            flags = frozenset({"built"})
            partial = False
            for piece in node.values:
                if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                    texts = [text + piece.value for text in texts]
                    continue
                if isinstance(piece, ast.FormattedValue):
                    value = self.ev(piece.value, d)
                    flags = flags | value.flags
                    spec = "".join(p.value for p in getattr(piece.format_spec, "values", []) if isinstance(p, ast.Constant))
                    options = value.options[:8] if isinstance(value, Alt) and len(texts) * len(value.options) <= 16 else (value,)
                    pieces = []
                    for option in options:
                        flags = flags | option.flags
                        if isinstance(option, (Str, Num)) and not (isinstance(option, Num) and option.value is None and spec):
                            pieces.append(format(option.value, spec) if piece.conversion == -1 else
                                          format({115: str, 114: repr, 97: ascii}[piece.conversion](option.value), spec))
                        elif isinstance(option, Inst) and option.path is not None:
                            pieces.append(option.path)
                        else:
                            if isinstance(option, Ref) and option.qual == "os.environ":
                                flags = flags | {"secret"}
                            pieces.append(PH)
                            partial = True
                    texts = [text + piece_text for text in texts for piece_text in pieces]
            if sum(map(len, texts)) > MAX_VALUE_CHARS:
                return Unknown(flags)
            marks = flags | ({"partial"} if partial else NO_FLAGS)
            if len(texts) == 1:
                return Str(marks, texts[0])
            return Alt(marks, tuple(Str(marks, text) for text in texts))
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = []
            for element in node.elts[:10_000]:
                if isinstance(element, ast.Starred):
                    inner = self.ev(element.value, d)
                    items.extend(inner.items if isinstance(inner, Seq) else [inner])
                else:
                    items.append(self.ev(element, d))
            return Seq(NO_FLAGS, tuple(items))
        if isinstance(node, ast.Dict):
            flags = NO_FLAGS
            items = []
            for key, value_node in zip(node.keys, node.values):
                value = self.ev(value_node, d)
                if key is None and isinstance(value, Ref) and value.qual == "os.environ":
                    flags = flags | {"secret"}
                flags = flags | value.flags
                items.append(value)
            if flags:
                return Unknown(flags - {"sockfd"})
            keys = tuple(self.ev(key, d) if key is not None else UNKNOWN for key in node.keys)
            return DictSeq(NO_FLAGS, tuple(items), keys)
        if isinstance(node, ast.Subscript):
            return self._subscript(self.ev(node.value, d), node.slice, d)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self._comprehension(node, d)
        if isinstance(node, ast.Await):
            return self.ev(node.value, d)
        if isinstance(node, ast.NamedExpr):
            return self.ev(node.value, d)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self.ev(node.left, d), self.ev(node.comparators[0], d)
            if isinstance(left, (Num, Str)) and isinstance(right, (Num, Str)):
                op = node.ops[0]
                table = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
                         ast.Gt: lambda a, b: a > b, ast.LtE: lambda a, b: a <= b, ast.GtE: lambda a, b: a >= b}
                if type(op) in table:
                    return Num(NO_FLAGS, table[type(op)](left.value, right.value))
            return Unknown((left.flags | right.flags) - {"sockfd"})
        if isinstance(node, ast.UnaryOp):
            operand = self.ev(node.operand, d)
            if isinstance(node.op, ast.Not):
                truth = _truthy(operand)
                return Num(NO_FLAGS, not truth) if truth is not None else UNKNOWN
            if isinstance(operand, Num) and isinstance(operand.value, (int, float)):
                return Num(operand.flags, -operand.value if isinstance(node.op, ast.USub) else
                           ~operand.value if isinstance(node.op, ast.Invert) else operand.value)
            return Unknown(operand.flags)
        if isinstance(node, ast.BoolOp):
            values = [self.ev(v, d) for v in node.values]
            if isinstance(node.op, ast.Or):
                possible = []
                for value in values:
                    truth = _truthy(value)
                    if truth is False:
                        continue
                    possible.append(value)
                    if truth is True:
                        break
                if len(possible) == 1:
                    return possible[0]
                if possible:  # `os.environ.get(...) or "~/.pgpass"`: any of them
                    return Alt(_flags_of(possible) - {"sockfd"}, tuple(possible[:MAX_ALTERNATIVES]))
            return Unknown(_flags_of(values) - {"sockfd"})
        if isinstance(node, ast.IfExp):
            body, orelse = self.ev(node.body, d), self.ev(node.orelse, d)
            return Alt(NO_FLAGS, (body, orelse))
        if isinstance(node, ast.Lambda):
            return Ref(NO_FLAGS, "<local>.<lambda>")
        return UNKNOWN

    def _arguments(self, node: ast.Call, d: int = 0) -> list[V]:
        """The positional arguments, a starred list of known length spread into its items
        (``join(base, *("../" * 8).split("/"))``)."""
        out: list[V] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                value = self.ev(a.value, d)
                if isinstance(value, Alt) and len(value.options) == 1:  # *rest bound from the one call site
                    value = _with(value.options[0], value.flags)
                if isinstance(value, Seq) and not isinstance(value, DictSeq) and "sampled" not in value.flags and len(value.items) <= 64:
                    out.extend(_with(item, value.flags - {"built", "sliced"}) for item in value.items)
                else:
                    out.append(value)
            else:
                out.append(self.ev(a, d))
        return out

    def _name(self, name: str) -> V:
        value = self.env.get(name)
        if value is not None:
            return value
        if name in ("__builtins__", "builtins"):
            return Ref(NO_FLAGS, "builtins")
        if name == "__file__":
            return Str(frozenset({"self"}), "__file__")  # the program's own file, where it runs
        if name in _BUILTIN_NAMES:
            return Ref(NO_FLAGS, "builtins." + name)
        if self.star_modules:  # `from os import *`: an unknown name may come from the first such module
            return Ref(frozenset({"indirect"}), _canonical(f"{self.star_modules[0]}.{name}"))
        return UNKNOWN

    def _attribute(self, base: V, attr: str) -> V:
        if isinstance(base, Ref) and base.recv is None and base.qual in ("os", "os.path", "posixpath") and attr in _OS_CONSTANTS:
            return Str(NO_FLAGS, _OS_CONSTANTS[attr])
        if isinstance(base, Ref) and base.recv is None and f"{base.qual}.{attr}" in R.SITE_CONSTANTS:
            return Str(NO_FLAGS, R.SITE_CONSTANTS[f"{base.qual}.{attr}"])
        if isinstance(base, Alt) and base.options and len(base.options) <= 8 and all(isinstance(o, Inst) for o in base.options):
            return Alt(base.flags, tuple(self._attribute(option, attr) for option in base.options))
        if isinstance(base, Inst) and base.kind == "pathlib.Path" and attr in ("anchor", "root", "drive") and base.path is not None \
                and not base.path.startswith("~"):
            if attr == "drive":
                return Str(base.flags, "")
            # the top of an absolute path; cwd's and __file__'s are absolute where the program runs
            return Str(base.flags, "/") if base.path.startswith("/") or base.path in (".", "__file__") else Str(base.flags | {"partial"}, PH)
        if isinstance(base, Inst) and base.kind == "pathlib.Path" and attr in ("parent", "parents"):
            path = base.path if base.path is not None else PH
            return Inst(base.flags, "pathlib.Path" if attr == "parent" else "pathlib.Path#parents", f"{path.rstrip('/')}/..")
        if isinstance(base, Ref):
            if attr in ("__dict__", "__builtins__") and base.recv is None:
                return Ref(base.flags, "builtins" if attr == "__builtins__" else base.qual)
            if base.qual == "<globals>":
                return UNKNOWN
            if base.recv is not None:
                return Ref(base.flags, f"{base.qual}.{attr}", base.recv)
            return Ref(base.flags, _canonical(f"{base.qual}.{attr}"))
        if attr == "pid" and self._own_process(base):
            return Unknown(frozenset({"ownpid"}))
        if isinstance(base, Inst) and base.kind == "argparse.Namespace":
            default = self.arg_defaults.get(attr)
            given = Unknown(frozenset({"user"}))
            return Alt(NO_FLAGS, (given, default)) if default is not None else given
        if isinstance(base, Inst) and base.kind == "pwd.struct_passwd":
            return Str(NO_FLAGS, "~") if attr in ("pw_dir", "home") else UNKNOWN  # every account's home, spelled as one
        if isinstance(base, Inst) and base.kind == "os.DirEntry" and attr == "path":
            return Str(base.flags, base.path or PH)
        if isinstance(base, Inst):
            if base.kind == "sys.argv" or (base.kind == "file" and attr == "name"):
                return Unknown(base.flags)
            return Ref(base.flags, f"{base.kind}#{attr}", base)
        if isinstance(base, (Str, Bytes, Seq)):
            kind = "str" if isinstance(base, Str) else "bytes" if isinstance(base, Bytes) else "seq"
            return Ref(base.flags, f"{kind}#{attr}", base)
        if base.flags & {"self"} and attr in ("executable", "argv"):
            return Unknown(base.flags)
        return Ref(base.flags, f"?#{attr}", base)

    def _subscript(self, base: V, index_node: ast.AST, d: int) -> V:
        if isinstance(index_node, ast.Slice):
            lower, upper, step = (self.ev(part, d) if part is not None else Num(NO_FLAGS, None)
                                  for part in (index_node.lower, index_node.upper, index_node.step))
            if isinstance(base, (Str, Bytes, Seq)) and all(isinstance(p, Num) for p in (lower, upper, step)):
                bounds = slice(lower.value, upper.value, step.value)  # type: ignore[union-attr]
                flag = "encoded" if (step.value or 1) < 0 else "built"  # type: ignore[union-attr]
                if isinstance(base, Str):
                    return Str(base.flags | {flag}, base.value[bounds])
                if isinstance(base, Bytes):
                    return Bytes(base.flags | {flag}, base.value[bounds])
                return Seq(base.flags | {flag, "sliced"}, base.items[bounds])
            return Unknown(base.flags | {"sliced"})
        index = self.ev(index_node, d)
        if isinstance(base, Ref):
            if base.qual == "os.environ" and isinstance(index, Str):
                return self._env_var(index.value)
            if base.qual == "sys.argv":
                return Unknown(frozenset({"self"})) if isinstance(index, Num) and index.value == 0 else UNKNOWN
            if base.qual == "<globals>" and isinstance(index, Str):
                value = self._name(index.value)
                return _with(value, frozenset({"indirect"}) | (index.flags & {"built", "encoded"} and frozenset({"obfname"})))
            if base.qual == "sys.modules" and isinstance(index, Str):
                return Ref(frozenset({"indirect"}) | (frozenset({"obfname"}) if index.flags & {"built", "encoded"} else NO_FLAGS),
                           _canonical(index.value))
            if isinstance(index, Str) and base.recv is None and (base.qual in ("builtins",) or base.qual.split(".")[0] in R.DANGEROUS_MODULES):
                return Ref(base.flags | {"indirect"} | (frozenset({"obfname"}) if index.flags & {"built", "encoded"} else NO_FLAGS),
                           _canonical(f"{base.qual}.{index.value}"))
            return Unknown(base.flags - {"sockfd"})
        if isinstance(base, Inst) and base.kind == "pathlib.Path#parents":
            if isinstance(index, Num) and isinstance(index.value, int) and index.value >= 0:
                return Inst(base.flags, "pathlib.Path", (base.path or PH) + "/.." * index.value)
            return Inst(base.flags, "pathlib.Path", PH)  # parents[-1], parents[len(...) - 1]: an ancestor, maybe the top
        if isinstance(base, Seq) and isinstance(index, Num) and isinstance(index.value, int):
            return _with(base.items[index.value], base.flags)
        if isinstance(base, Seq) and isinstance(index, Str) and base.items:  # a dict's values: any of them
            return Alt(base.flags, base.items[:MAX_ALTERNATIVES])
        if isinstance(base, DictSeq) and base.items and not isinstance(index, Num):  # ROUTES[key]: whichever key is asked
            return Alt(base.flags, base.items[:MAX_ALTERNATIVES])
        if isinstance(base, Str) and isinstance(index, Num) and isinstance(index.value, int):
            return Str(base.flags | {"built"}, base.value[index.value])
        if isinstance(base, Bytes) and isinstance(index, Num) and isinstance(index.value, int):
            return Num(base.flags, base.value[index.value])
        if isinstance(base, Inst) and base.kind == "tuple:socket.accept" and isinstance(index, Num) and index.value == 0:
            return Inst(frozenset({"sockfd"}), "socket.socket")
        return Unknown((base.flags | index.flags) - {"sockfd"})

    def _comprehension(self, node: ast.AST, d: int) -> V:
        generators = node.generators  # type: ignore[attr-defined]
        if len(generators) != 1 or not isinstance(generators[0].target, ast.Name):
            return Unknown(self.ev(generators[0].iter, d).flags - {"sockfd"}) if generators else UNKNOWN
        generator = generators[0]
        iterated = self.ev(generator.iter, d)
        items = self._iterate(iterated)
        sampled = items is None and not isinstance(iterated, Alt)
        if sampled:  # [join("/home", u) for u in os.listdir("/home")]: items like its element, how many unknown
            items = [self._iter_value(iterated)]
        if items is None or len(items) > 10_000:
            return Unknown(iterated.flags - {"sockfd"})
        name = generator.target.id
        saved = self.env.get(name)
        memo, self.memo = self.memo, None  # the element's value changes with every item
        out: list[V] = []
        try:
            for item in items:
                self.env[name] = item
                if all(_truthy(self.ev(cond, d)) is not False for cond in generator.ifs):
                    out.append(self.ev(node.elt, d))  # type: ignore[attr-defined]
        finally:
            self.memo = memo
            if saved is None:
                self.env.pop(name, None)
            else:
                self.env[name] = saved
        if sampled:
            return Seq(frozenset({"built", "sampled"}) | (_flags_of(out) & {"secret", "sysfile", "net", "user"}), tuple(out[:1]))
        return Seq(frozenset({"built"}), tuple(out))

    @staticmethod
    def _iterate(value: V) -> list[V] | None:
        if isinstance(value, DictSeq):  # iterating a dict gives its keys
            return [_with(key, value.flags) for key in value.keys]
        if isinstance(value, Seq):
            return [_with(item, value.flags) for item in value.items]
        if isinstance(value, Str):
            return [Str(value.flags, ch) for ch in value.value]
        if isinstance(value, Bytes):
            return [Num(value.flags, b) for b in value.value]
        return None

    def _binop(self, op: ast.operator, left: V, right: V) -> V:
        for side in (left, right):  # `base + "/*"`, `home / rc` for each value a loop gives
            if isinstance(side, Alt) and 0 < len(side.options) <= 16 and not isinstance(op, (ast.BitXor, ast.BitAnd, ast.BitOr)):
                results = tuple(self._binop(op, option if side is left else left, right if side is left else option)
                                for option in side.options)
                return _alt(side.flags, results)
        flags = (left.flags | right.flags) - {"sockfd"}
        if isinstance(op, ast.Add):
            if isinstance(left, Str) and isinstance(right, Str):
                if len(left.value) + len(right.value) > MAX_VALUE_CHARS:
                    return Unknown(flags)
                return Str(flags | {"built"}, left.value + right.value)
            if isinstance(left, Bytes) and isinstance(right, Bytes):
                if len(left.value) + len(right.value) > MAX_VALUE_CHARS:
                    return Unknown(flags)
                return Bytes(flags | {"built"}, left.value + right.value)
            if isinstance(left, Seq) and isinstance(right, Seq):
                return Seq(flags, left.items + right.items)
            if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, (int, float)) and isinstance(right.value, (int, float)):
                return Num(flags, left.value + right.value)
            if isinstance(left, Str) or isinstance(right, Str):
                text = (left.value if isinstance(left, Str) else PH) + (right.value if isinstance(right, Str) else PH)
                return Str(flags | {"partial"}, text[:MAX_VALUE_CHARS])
            return Unknown(flags)
        if isinstance(op, ast.Mult):
            seq, times = (left, right) if isinstance(right, Num) else (right, left)
            if isinstance(times, Num) and isinstance(times.value, int) and isinstance(seq, Seq) and not isinstance(seq, DictSeq):
                if len(seq.items) * max(times.value, 0) > 10_000:
                    return Unknown(flags)
                return Seq(flags | {"built"}, seq.items * max(times.value, 0))  # [".."] * depth
            if isinstance(times, Num) and isinstance(times.value, int) and isinstance(seq, (Str, Bytes)):
                if len(seq.value) * max(times.value, 0) > MAX_VALUE_CHARS:
                    return Unknown(flags)
                return (Str if isinstance(seq, Str) else Bytes)(flags | {"built"}, seq.value * times.value)  # type: ignore[operator]
            if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, int) and isinstance(right.value, int):
                if abs(left.value) < 1 << 62 and abs(right.value) < 1 << 62:
                    return Num(flags, left.value * right.value)
            return Unknown(flags)
        if isinstance(op, ast.Mod) and isinstance(left, Str) and isinstance(right, Seq):
            for index, item in enumerate(right.items):  # "%s/%s" % (base, name) for each value name may have
                if isinstance(item, Alt) and 0 < len(item.options) <= 16:
                    return Alt(item.flags, tuple(self._binop(op, left, Seq(right.flags, right.items[:index] + (option,) + right.items[index + 1:]))
                                                 for option in item.options))
        if isinstance(op, ast.Mod) and isinstance(left, Str):
            if isinstance(right, Seq) and all(isinstance(i, (Str, Num)) for i in right.items):
                return Str(flags | {"built"}, left.value % tuple(i.value for i in right.items))  # type: ignore[union-attr]
            if isinstance(right, Seq) and re.fullmatch(r"(?:[^%]|%%|%s)*", left.value) and left.value.count("%s") == len(right.items):
                known = tuple(i.value if isinstance(i, (Str, Num)) else i.path if isinstance(i, Inst) and i.path else PH for i in right.items)
                return Str(flags | {"built", "partial"}, left.value % known)
            if isinstance(right, (Str, Num)):
                return Str(flags | {"built"}, left.value % right.value)
            return Str(flags | {"built", "partial"}, re.sub(r"%[-#0 +]*\d*(\.\d+)?[sdrifxXoc]", PH, left.value))
        if isinstance(op, ast.Div) and isinstance(left, Inst) and left.kind == "pathlib.Path":
            part = right.value if isinstance(right, Str) else PH
            base = left.path if left.path is not None else PH
            return Inst(flags, "pathlib.Path", part if part.startswith("/") else f"{base.rstrip('/')}/{part}")
        if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, int) and isinstance(right.value, int):
            table = {ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b, ast.BitXor: lambda a, b: a ^ b,
                     ast.Sub: lambda a, b: a - b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
                     ast.LShift: lambda a, b: a << b if b < 64 else None, ast.RShift: lambda a, b: a >> b,
                     ast.Pow: lambda a, b: a ** b if 0 <= b < 64 and abs(a) < 1 << 16 else None}
            if type(op) in table:
                result = table[type(op)](left.value, right.value)
                return Num(flags, result) if result is not None else Unknown(flags)
        return Unknown(flags)

    def _env_var(self, name: str) -> V:
        if name in ("HOME", "USERPROFILE"):
            return Str(NO_FLAGS, "~")
        return Unknown(frozenset({"env-secret"}) if R.SECRETISH_ENV.search(name) else NO_FLAGS)

    def _call(self, func: V, args: list[V], kwargs: dict[str, V], spread: list[V]) -> V:
        flags = (_flags_of(args) | _flags_of(kwargs.values()) | _flags_of(spread)) - {"sockfd", "obfname", "indirect", "partial"}
        if any(isinstance(a, Ref) and a.qual == "os.environ" for a in [*args, *kwargs.values(), *spread]):
            flags = flags | {"secret"}
        if isinstance(func, Alt) and func.options and len(func.options) <= 8 and all(isinstance(o, Ref) for o in func.options):
            return _alt(func.flags, tuple(self._call(option, args, kwargs, spread) for option in func.options))
        if not isinstance(func, Ref):
            return Unknown(flags | (func.flags - {"sockfd", "obfname", "indirect"}))
        q = func.qual
        recv = func.recv
        if q in _MAPPED_OVER_ALTERNATIVES:  # os.path.join(base, name) for each name a loop gives, etc.
            for index, arg in enumerate(args):
                if isinstance(arg, Alt) and 0 < len(arg.options) <= 16:
                    return _alt(arg.flags, tuple(self._call(func, [*args[:index], option, *args[index + 1:]], kwargs, spread)
                                                 for option in arg.options))
        a0 = args[0] if args else kwargs.get("s") or kwargs.get("string") or kwargs.get("data") or kwargs.get("name")
        # -- imports and attribute lookups by name
        if q in ("builtins.__import__", "importlib.import_module") and isinstance(a0, Str):
            name = a0.value if (q == "importlib.import_module" or len(args) > 3 or "fromlist" in kwargs) else a0.value.split(".")[0]
            marks = frozenset({"indirect"}) | (frozenset({"obfname"}) if a0.flags & {"built", "encoded", "opaque"} else NO_FLAGS)
            return Ref(marks, _canonical(name))
        if q == "builtins.getattr" and len(args) >= 2 and isinstance(args[1], Str):
            target = self._attribute(args[0], args[1].value)
            marks = frozenset({"indirect"}) | (frozenset({"obfname"}) if args[1].flags & {"built", "encoded", "opaque"} else NO_FLAGS)
            return _with(target, marks)
        if q in ("builtins.vars",) and args:
            return args[0]
        if q == "functools.partial" and args and isinstance(args[0], (Ref, Alt)):
            return Partial(NO_FLAGS, args[0], tuple(args[1:]))
        if q in ("builtins.str", "os.fspath", "os.path.abspath", "os.path.realpath") and isinstance(a0, Inst) and a0.path is not None:
            return Str(a0.flags, a0.path)
        if q in ("builtins.globals", "builtins.locals"):
            return Ref(NO_FLAGS, "<globals>")
        if q in ("operator.attrgetter", "operator.methodcaller"):
            return UNKNOWN
        # -- pure transformations of constants
        if recv is not None and isinstance(recv, (Str, Bytes, Seq)):
            return self._method(recv, q.split("#", 1)[1], args, kwargs, flags)
        try:
            pure = self._pure(q, args, kwargs, flags)
        except Exception:  # noqa: BLE001 - a decoder that fails on its input still marks what it would decode
            pure = Unknown(flags | {"encoded"}) if q in R.DECODERS or q == "builtins.chr" else Unknown(flags)
        if pure is not None:
            return pure
        # -- objects we follow
        if q in R.SOCKET_MAKERS:
            return Inst(frozenset({"sockfd"}), "socket.socket")
        if q == "socket.socket#accept":
            return Inst(frozenset({"sockfd"}), "tuple:socket.accept")
        if q.startswith("socket.socket#"):
            method = q.split("#", 1)[1].split(".")[0]
            if method in ("fileno", "dup", "detach", "makefile"):
                return Inst(frozenset({"sockfd"} | ({"net"} if method == "makefile" else set())), "socket.socket")
            if method in R.SOCKET_RECV_METHODS:
                return Unknown(frozenset({"net"}) | flags)
            return Unknown(flags)
        if q in R.REQUEST_BUILDERS:  # what the request carries, not how it logs in (headers, auth)
            carried = [*args[:2], *[v for k, v in kwargs.items() if k not in ("headers", "auth", "cookies")]]
            return Inst((_flags_of(carried) - {"sockfd", "obfname", "indirect", "partial"}) | {"net"}, q)
        if q.startswith(R.HTTP_FETCH_PREFIXES) and "#" not in q or q.split("#")[0].startswith(("requests.Session", "httpx.Client", "aiohttp.ClientSession")):
            return Inst(flags | {"net"}, q)
        if q.startswith(R.NETWORK_PREFIXES) and "#" not in q:
            return Inst(flags, q)
        if q in ("os.getenv", "os.environ.get", "os.environ.pop", "os.environ.setdefault") and isinstance(a0, Str):
            default = args[1] if len(args) > 1 else kwargs.get("default")
            if default is not None and not (isinstance(default, Num) and default.value is None):
                variable = self._env_var(a0.value)
                return Alt(variable.flags | default.flags, (variable, default))  # the variable, or the default when unset
            return self._env_var(a0.value)
        if q in ("os.environ.copy", "os.environ.items", "os.environ.values", "os.environ.keys", "os.environ.__str__"):
            return Unknown(frozenset({"secret"}))  # the whole environment
        if q in ("pathlib.Path", "pathlib.PurePath"):
            parts = [a.value if isinstance(a, Str) else a.path if isinstance(a, Inst) and a.path else PH for a in args] or ["."]
            return Inst(flags, "pathlib.Path", _join(parts) or ".")
        if q == "pathlib.Path.home" or q == "pathlib.Path#home":
            return Inst(NO_FLAGS, "pathlib.Path", "~")
        if q in ("pathlib.Path.cwd", "os.getcwd"):
            return Inst(NO_FLAGS, "pathlib.Path", ".") if q.startswith("pathlib") else Str(NO_FLAGS, ".")
        if q.startswith("pathlib.Path#") and isinstance(recv, Inst):
            method = q.split("#", 1)[1]
            if method in ("expanduser", "resolve", "absolute", "with_name", "with_suffix", "joinpath"):
                if method == "joinpath":
                    joined: V = recv
                    for part in args or [Str(NO_FLAGS, "")]:
                        joined = self._binop(ast.Div(), joined, part)
                    return joined
                return recv
            if method in ("read_text", "read_bytes") and recv.path:
                own = frozenset({"ownpid"}) if normalise_path(recv.path) in self.own_pid_files else NO_FLAGS
                return Unknown(flags | recv.flags | self._file_marks(recv.path) | own)
            if method == "open":
                return Inst(recv.flags | self._file_marks(recv.path), "file", recv.path)
            if method in ("rglob", "glob", "iterdir", "walk"):
                pattern = _wildcards_unknown(args[0].value) if args and isinstance(args[0], Str) and method != "walk" else PH
                deep = f"{PH}/" if method == "rglob" else ""
                return Inst(recv.flags, "pathlib.Path#iter", f"{(recv.path or PH).rstrip('/')}/{deep}{pattern}")
            return Unknown(recv.flags | flags)
        if q in R.FILE_OPENERS:
            paths = _strings(a0)[:16] if a0 is not None else []
            marks = NO_FLAGS
            for path in paths:
                marks = marks | self._file_marks(path)
            return Inst(flags | marks, "file", paths[0] if paths else None)
        if q.startswith("file#"):
            own = isinstance(recv, Inst) and recv.path is not None and normalise_path(recv.path) in self.own_pid_files
            return Unknown((recv.flags if recv else NO_FLAGS) | flags | (frozenset({"ownpid"}) if own else NO_FLAGS))
        if q in ("sys.argv", "sys.executable"):
            return Unknown(frozenset({"self"}))
        if q == "multiprocessing.Process" or q == "threading.Thread":
            return Inst(flags, q)
        if q in R.COMMANDS and any(secret_label(text, self.paths) for value in args[:1] for text in _command_words(value)):
            return Unknown(flags | {"secret"})
        if q in R.CHILD_MAKERS:
            return Inst(NO_FLAGS, q)  # the program's own child: its .pid is the program's to signal
        if q in R.SITE_PATHS:  # where an interpreter's packages and start-up hooks live
            value = R.SITE_PATHS[q]
            if isinstance(value, tuple):
                return Seq(NO_FLAGS, tuple(Str(NO_FLAGS, text) for text in value))
            if isinstance(value, dict):
                return DictSeq(NO_FLAGS, tuple(Str(NO_FLAGS, text) for text in value.values()),
                               tuple(Str(NO_FLAGS, key) for key in value))
            return Str(NO_FLAGS, value)
        if q in ("tempfile.mkdtemp", "tempfile.gettempdir", "tempfile.mktemp", "tempfile.mkstemp"):
            return Str(NO_FLAGS, "/tmp/" + PH) if q != "tempfile.mkstemp" else Seq(NO_FLAGS, (UNKNOWN, Str(NO_FLAGS, "/tmp/" + PH)))
        if q in ("argparse.ArgumentParser", "configparser.ConfigParser", "configparser.RawConfigParser", "configparser.SafeConfigParser"):
            return Inst(NO_FLAGS, q)
        if q in ("argparse.ArgumentParser#parse_args", "argparse.ArgumentParser#parse_known_args"):
            namespace = Inst(frozenset({"user"}), "argparse.Namespace")
            return namespace if q.endswith("parse_args") else Seq(NO_FLAGS, (namespace, UNKNOWN))
        if q in ("pwd.getpwnam", "pwd.getpwuid", "pwd.getpwall", "spwd.getspall"):
            return Inst(NO_FLAGS, "pwd.all" if q.endswith("all") else "pwd.struct_passwd")
        if q in ("os.walk", "os.fwalk", "os.scandir") and a0 is not None and _strings(a0):
            return Inst(a0.flags, q, _strings(a0)[0])
        if q in ("os.getpgid", "os.getsid") and a0 is not None and not (isinstance(a0, Num) and a0.value == 0):
            return Unknown(a0.flags & {"ownpid", "foreignproc"})  # the group of whatever process it names
        if q in R.OWN_PIDS:
            return Unknown(frozenset({"ownpid"}))
        if q == "psutil.process_iter":
            return Inst(frozenset({"foreignproc"}), "psutil.process_iter")
        if q in ("psutil.pids", "psutil.win_service_iter"):
            return Unknown(frozenset({"foreignproc"}))
        if q == "psutil.Process":
            own = a0 is None or (self._own_process(a0) and not self._foreign_process(a0))
            return Inst(NO_FLAGS, "psutil.Process:own") if own else Inst(frozenset({"foreignproc"}), "psutil.Process")
        if q.startswith("psutil.Process:own#") and q.endswith(("#children", "#parent")):
            return Inst(NO_FLAGS, "psutil.Process:own#children")
        if q == "builtins.compile" and a0 is not None:
            return self._code_value(a0, flags)
        if q in ("marshal.loads", "marshal.load"):
            return Code(flags | {"encoded", "marshal"}, None)
        if q in ("types.FunctionType", "types.CodeType", "types.LambdaType") and args:
            return args[0] if isinstance(args[0], Code) else Code(flags, None)
        if q in ("pickle.loads", "pickle.load", "dill.loads"):
            return Unknown(flags | {"encoded"})
        if q in _PARSERS:  # values parsed out of a configuration file (a URL, a user name) are not the file
            return Unknown(flags - {"sysfile", "sliced"})
        callee = self._local_callee(q)
        if callee is not None and callee not in self.classes:
            returned = tuple(self.returns.get(callee, {}).values())[:MAX_ALTERNATIVES]
            if returned:  # what the function returns, marked as having crossed a function
                marks = (_flags_of(returned) - {"obfname", "indirect", "partial"}) | {"param"}
                return returned[0] if len(returned) == 1 and not (marks - returned[0].flags) else Alt(marks, returned)
        if q.startswith("<local>."):
            return Unknown(flags)
        return Unknown(flags | (func.flags - {"sockfd", "obfname", "indirect", "partial"}))

    def _file_marks(self, path: str | None) -> frozenset[str]:
        """secret: the file holds credentials; sysfile: it is outside the working directory and not
        rated harmless (its contents sent away are a system file leaving the machine)."""
        if path is None or self.paths is None:
            return NO_FLAGS
        path = self._in_cwd(path)
        if self.paths.secret(path):
            return frozenset({"secret"})
        if self.paths.outside(path):
            return frozenset({"sysfile"})
        if path.endswith(".pid") and not outside_working_dir(path):
            return frozenset({"cwdpid"})  # a pid file of the program's own project (its service, a worker)
        return NO_FLAGS

    @staticmethod
    def _code_value(value: V, flags: frozenset[str]) -> V:
        if isinstance(value, Str):
            return Code(value.flags | flags, value.value)
        if isinstance(value, Bytes):
            return Code(value.flags | flags, value.value.decode("utf-8", "replace"))
        if isinstance(value, Code):
            return value
        return Code(value.flags | flags, None)

    def _pure(self, q: str, args: list[V], kwargs: dict[str, V], flags: frozenset[str]) -> V | None:
        a0 = args[0] if args else None
        enc = flags | {"encoded"}
        if q == "builtins.chr" and isinstance(a0, Num) and isinstance(a0.value, int):
            return Str(enc, chr(a0.value))
        if q == "builtins.ord" and isinstance(a0, Str) and len(a0.value) == 1:
            return Num(flags, ord(a0.value))
        if q == "builtins.str" and isinstance(a0, (Str, Num)) and len(args) == 1:
            return Str(a0.flags, str(a0.value))
        if q == "builtins.str" and isinstance(a0, Bytes):
            return Str(enc, a0.value.decode(args[1].value if len(args) > 1 and isinstance(args[1], Str) else "utf-8", "replace"))
        if q == "builtins.int" and isinstance(a0, (Str, Num)):
            base = args[1].value if len(args) > 1 and isinstance(args[1], Num) else 10
            return Num(flags, int(a0.value, base) if isinstance(a0.value, str) else int(a0.value))
        if q in ("builtins.bytes", "builtins.bytearray"):
            if isinstance(a0, Seq) and all(isinstance(i, Num) and isinstance(i.value, int) for i in a0.items):
                return Bytes(enc, bytes(i.value for i in a0.items))  # type: ignore[union-attr]
            if isinstance(a0, Str):
                return Bytes(a0.flags, a0.value.encode(args[1].value if len(args) > 1 and isinstance(args[1], Str) else "utf-8"))
            if isinstance(a0, Bytes):
                return a0
        if q in ("builtins.sorted", "builtins.list", "builtins.reversed", "builtins.tuple") and isinstance(a0, Inst) and a0.kind.endswith("#iter"):
            return a0
        if q in ("builtins.list", "builtins.tuple") and a0 is not None:
            items = self._iterate(a0)
            return Seq(a0.flags, tuple(items)) if items is not None else Unknown(a0.flags - {"sockfd"})
        if q == "builtins.reversed" and a0 is not None:
            items = self._iterate(a0)
            if items is not None:
                return Seq(a0.flags | {"encoded"}, tuple(reversed(items)))
        if q == "builtins.map" and len(args) == 2 and isinstance(args[0], Ref):
            items = self._iterate(args[1])
            if items is not None and len(items) <= 100_000:
                mapped = [self._call(args[0], [item], {}, []) for item in items]
                return Seq(args[1].flags | {"built"}, tuple(mapped))
        if q in ("bytes.fromhex", "bytearray.fromhex") and isinstance(a0, Str):
            return Bytes(enc, bytes.fromhex(a0.value))
        if q in R.DECODERS and q.startswith(("base64.", "binascii.")) and isinstance(a0, (Str, Bytes)):
            data = a0.value.encode("latin-1") if isinstance(a0, Str) else a0.value
            name = q.split(".", 1)[1]
            decoded = {
                "b64decode": lambda b: base64.b64decode(b + b"=" * (-len(b) % 4)), "standard_b64decode": base64.standard_b64decode,
                "urlsafe_b64decode": lambda b: base64.urlsafe_b64decode(b + b"=" * (-len(b) % 4)), "b32decode": base64.b32decode,
                "b16decode": lambda b: base64.b16decode(b, casefold=True), "b85decode": base64.b85decode, "a85decode": base64.a85decode,
                "decodebytes": base64.decodebytes, "decodestring": base64.decodebytes, "unhexlify": binascii.unhexlify,
                "a2b_hex": binascii.a2b_hex, "a2b_base64": binascii.a2b_base64,
            }[name](data)
            return Bytes(enc, decoded)
        if q in R.DECODERS and q.startswith(("base64.", "binascii.")) and a0 is not None:
            return Unknown(enc)
        if q in ("zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress"):
            if isinstance(a0, Bytes):
                return Bytes(enc, _decompress(q.split(".")[0], a0.value))
            return Unknown(enc)
        if q in ("codecs.decode", "codecs.encode") and a0 is not None:
            encoding = (args[1] if len(args) > 1 else kwargs.get("encoding", Str(NO_FLAGS, "utf-8")))
            if isinstance(encoding, Str):
                return _codec(a0, encoding.value, enc)
            return Unknown(enc)
        if q in ("os.path.expanduser", "os.path.expandvars", "os.path.abspath", "os.path.realpath", "os.path.normpath", "os.fspath",
                 "os.path.join", "posixpath.join", "ntpath.join"):
            parts = [a.value if isinstance(a, Str) else a.path if isinstance(a, Inst) and a.path else PH for a in args]
            if not parts:
                return None
            return Str(flags, _join(parts))
        if q in ("os.path.dirname", "os.path.basename") and isinstance(a0, (Str, Inst)):
            text = a0.value if isinstance(a0, Str) else a0.path or PH
            return Str(flags, posixpath.dirname(text) if q.endswith("dirname") else posixpath.basename(text))
        if q == "os.path.expanduser" and a0 is None:
            return None
        if q in ("glob.glob", "glob.iglob") and isinstance(a0, Str):
            return Seq(a0.flags, (Str(a0.flags, a0.value),))
        if q == "random.choice" and isinstance(a0, Seq) and a0.items:
            return Alt(a0.flags, a0.items[:MAX_ALTERNATIVES])
        return None

    def _method(self, recv: V, method: str, args: list[V], kwargs: dict[str, V], flags: frozenset[str]) -> V:
        a0 = args[0] if args else None
        base_flags = recv.flags | flags
        if isinstance(recv, Str):
            s = recv.value
            if method == "join":
                items = self._iterate(a0) if a0 is not None else None
                if items is not None and all(isinstance(i, Str) for i in items):
                    text = s.join(i.value for i in items)  # type: ignore[union-attr]
                    return Str(base_flags | _flags_of(items) | {"built"}, text) if len(text) <= MAX_VALUE_CHARS else Unknown(base_flags)
                return Unknown(base_flags | (a0.flags if a0 else NO_FLAGS))
            if method == "replace" and len(args) >= 2 and isinstance(args[0], Str) and isinstance(args[1], Str):
                text = s.replace(args[0].value, args[1].value)
                return Str(base_flags | {"built"}, text) if len(text) <= MAX_VALUE_CHARS else Unknown(base_flags)
            if method in ("upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize", "swapcase", "casefold") and all(
                isinstance(a, Str) for a in args
            ):
                return Str(base_flags | ({"encoded"} if method == "swapcase" else NO_FLAGS), getattr(s, method)(*(a.value for a in args)))  # type: ignore[union-attr]
            if method == "format":
                values = [a.value if isinstance(a, (Str, Num)) else PH for a in args]
                named = {k: v.value if isinstance(v, (Str, Num)) else PH for k, v in kwargs.items()}
                try:
                    text = s.format(*values, **named)
                except (IndexError, KeyError, ValueError):
                    return Unknown(base_flags)
                partial = PH in text
                return Str(base_flags | {"built"} | ({"partial"} if partial else NO_FLAGS), text)
            if method == "encode":
                encoding = a0.value if isinstance(a0, Str) else "utf-8"
                if encoding.replace("-", "_").lower() in ("rot13", "rot_13"):
                    return Str(base_flags | {"encoded"}, codecs.encode(s, "rot13"))
                return Bytes(base_flags, s.encode(encoding, "replace"))
            if method == "split":
                sep = a0.value if isinstance(a0, Str) else None
                return Seq(base_flags, tuple(Str(base_flags, part) for part in s.split(sep)[:10_000]))
            if method == "translate":
                return Unknown(base_flags | {"encoded"})
            if method in ("startswith", "endswith", "isdigit", "isalpha", "find", "count", "index"):
                return Unknown(NO_FLAGS)
            return Unknown(base_flags)
        if isinstance(recv, Bytes):
            if method == "decode":
                encoding = a0.value if isinstance(a0, Str) else "utf-8"
                return Str(base_flags, recv.value.decode(encoding, "replace"))
            if method == "hex":
                return Str(base_flags, recv.value.hex())
            if method == "translate" or method == "replace":
                return Unknown(base_flags | {"encoded"})
            return Unknown(base_flags)
        if isinstance(recv, DictSeq) and method in ("items", "keys", "values"):
            if method == "keys":
                return Seq(recv.flags, recv.keys)
            if method == "values":
                return Seq(recv.flags, recv.items)
            return Seq(recv.flags, tuple(Seq(NO_FLAGS, pair) for pair in zip(recv.keys, recv.items)))
        if isinstance(recv, Seq):
            if method in ("copy",):
                return recv
            return Unknown(base_flags)
        return Unknown(base_flags)

    # ---- the walk -------------------------------------------------------------------------

    def run(self, tree: ast.AST) -> None:
        self.pass_no = 1
        self._walk(tree)
        self._close_function_summaries()
        self.pass_no = 2
        self.memo = {}
        self.loops = []
        self._walk(tree)
        self._program_rules()

    def _walk(self, tree: ast.AST) -> None:
        # (node, context, expression depth); a callable instead of a node restores state when a
        # function's body has been walked. Iterative: the tree's depth never reaches the C stack.
        stack: list[tuple[Any, _Ctx, int]] = [(tree, _Ctx(), 0)]
        second = self.pass_no == 2
        counts = self.counts
        on_text, on_name = self._on_text, self._on_name
        while stack:
            node, ctx, depth = stack.pop()
            cls = node.__class__
            if cls is ast.Name:  # the commonest nodes: nothing below them
                if second:
                    if depth > self.max_expr_depth:
                        self.max_expr_depth = depth
                    if node.id in R.EXECUTABLE_MEMORY_NAMES:
                        on_name(node)
                continue
            if cls is ast.Constant:
                if second:
                    if depth > self.max_expr_depth:
                        self.max_expr_depth = depth
                    if isinstance(node.value, str):
                        on_text(node, node.value, ctx)
                continue
            if callable(node):
                node()
                continue
            if second:
                if depth > self.max_expr_depth:
                    self.max_expr_depth = depth
                if ctx.block_depth > self.max_block_depth:
                    self.max_block_depth = ctx.block_depth
                key = _COUNTED.get(cls)
                if key is not None:
                    counts[key] += len(node.names) if key == "imports" else 1
                if cls is ast.Attribute and (node.attr in R.EXECUTABLE_MEMORY_NAMES or node.attr in ("SOCK_RAW", "AF_PACKET")):
                    on_name(node)
            child_ctx = self._enter(node, ctx, stack)
            child_depth = depth + 1 if isinstance(node, ast.expr) else 0
            children = _children(node)
            for child in reversed(children):
                stack.append((child, child_ctx, child_depth))

    def _enter(self, node: ast.AST, ctx: _Ctx, stack: list[tuple[Any, _Ctx, int]]) -> _Ctx:
        """Learn from ``node`` (and in the second pass judge it); return the context of its children."""
        if isinstance(node, ast.expr):
            if isinstance(node, ast.Call):
                self._on_call(node, ctx)
            elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                self.env[node.target.id] = self.ev(node.value)
            elif isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
                loop = self._loop_for(node, node.generators[0].iter if node.generators else None)
                names = [n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)]
                saved = {name: self.env.get(name) for name in names}
                for generator in node.generators:  # the calls inside see what the loop variables may be
                    self._bind_loop_target(generator.target, self.ev(generator.iter))

                def restore() -> None:  # a comprehension's variables are its own
                    for name, value in saved.items():
                        if value is None:
                            self.env.pop(name, None)
                        else:
                            self.env[name] = value

                stack.append((restore, ctx, 0))
                return _Ctx(ctx.loops + (loop,), ctx.func, ctx.block_depth)
            elif isinstance(node, ast.Lambda):
                self._bind_params(node, "<lambda>")
            return ctx
        child = _Ctx(ctx.loops, ctx.func, ctx.block_depth + 1) if isinstance(node, _BLOCK_NODES) else ctx
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            self._on_assign(node, ctx)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self._on_import(node)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            loop = self._loop_for(node, node.iter)
            self._bind_loop_target(node.target, self.ev(node.iter))
            child = _Ctx(ctx.loops + (loop,), child.func, child.block_depth)
        elif isinstance(node, ast.While):
            truth = _truthy(self.ev(node.test))
            if truth is True and _names_in(node.test) & _assigned_in(node.body):
                truth = None  # `while restarts < 5:` with `restarts += 1` in the body: it ends
            loop = _Loop(node, infinite=truth is True, bound=None)
            self._register_loop(loop)
            child = _Ctx(ctx.loops + (loop,), child.func, child.block_depth)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    self._bind_target(item.optional_vars, self.ev(item.context_expr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.env[node.name] = Ref(NO_FLAGS, f"<local>.{node.name}")
            self.local_funcs[node.name] = node
            saved = self._bind_params(node, node.name)
            stack.append((saved, ctx, 0))  # runs after the body: the parameters go out of scope
            child = _Ctx((), node.name, child.block_depth)
        elif isinstance(node, ast.ClassDef):
            self.env[node.name] = Ref(NO_FLAGS, f"<local>.{node.name}")
            self.classes.add(node.name)
            for statement in node.body:
                if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                    for target in statement.targets if isinstance(statement, ast.Assign) else [statement.target]:
                        if isinstance(target, ast.Name):
                            self.class_attrs.add(target.id)
            bases = [self.ev(base) for base in node.bases]
            if any(isinstance(b, Ref) and b.qual.startswith(("socketserver.", "asyncio.Protocol", "asyncio.protocols.Protocol", "http.server."))
                   for b in bases):
                http = any(isinstance(b, Ref) and b.qual.startswith("http.server.") for b in bases)
                for statement in node.body:
                    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.net_methods.add(id(statement))
                        if http:
                            self.http_methods.add(id(statement))
        elif isinstance(node, ast.ExceptHandler) and node.name:
            self.env[node.name] = UNKNOWN
        elif isinstance(node, ast.Return) and ctx.func is not None and node.value is not None:
            self.returns.setdefault(ctx.func, {})[id(node)] = self.ev(node.value)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            self._on_mutation(node.value)
        return child

    def _bind_loop_target(self, target: ast.AST, iterated: V) -> None:
        items = self._iterate(iterated)
        if items is None and isinstance(iterated, Alt):  # `for d in args.dirs` (given or the default list)
            items = [item for option in iterated.options for item in (self._iterate(option) or [])] or None
        kept = tuple(items[:MAX_ALTERNATIVES]) if items else ()
        self._bind_target(target, Alt(_flags_of(kept) - {"sockfd", "obfname", "indirect"}, kept) if items else self._iter_value(iterated))

    _MUTATORS = frozenset({"append", "add", "insert", "extend", "update", "add_attachment", "attach", "set_content", "set_payload",
                           "write", "writestr", "writelines"})

    def _on_mutation(self, call: ast.Call) -> None:
        """``pids.append(child.pid)``, ``msg.add_attachment(data)``: the named container now holds it
        (a list gains the item; anything else takes on its marks)."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in self._MUTATORS and call.args):
            return
        name = func.value.id
        current = self.env.get(name)
        if current is None or isinstance(current, Ref):
            return
        added = [self.ev(a.value if isinstance(a, ast.Starred) else a) for a in call.args]
        if isinstance(current, Seq) and not isinstance(current, DictSeq) and func.attr in ("append", "add", "insert", "extend"):
            item = added[-1]
            new_items = tuple(item.items) if func.attr == "extend" and isinstance(item, Seq) else (item,)
            if len(current.items) + len(new_items) <= 10_000:
                self.env[name] = Seq(current.flags, current.items + new_items)
                return
        marks = _flags_of(added) - {"obfname", "indirect", "partial", "built", "sockfd"}
        if func.attr in ("write", "writestr", "writelines") and not isinstance(current, (Inst, Unknown)):
            return
        self.env[name] = _with(current, marks)

    def _bind_params(self, node: ast.AST, name: str) -> Any:
        args = node.args  # type: ignore[attr-defined]
        params = [a.arg for a in [*args.posonlyargs, *args.args]]
        others = [a.arg for a in args.kwonlyargs] + [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        saved = {p: self.env.get(p) for p in params + others}
        sites = self.call_sites.get(name, [])[:MAX_ALTERNATIVES]
        defaults = dict(zip(params[len(params) - len(args.defaults):], args.defaults)) if args.defaults else {}
        for index, param in enumerate(params):
            options = [site_args[index] for site_args, _ in sites if index < len(site_args)]
            options += [site_kwargs[param] for _, site_kwargs in sites if param in site_kwargs]
            if param in defaults and (not sites or len(options) < len(sites)):
                options.append(self.ev(defaults[param]))  # a call that leaves it out gets the default
            if index == 0 and id(node) in self.http_methods:  # self.path, self.headers, self.rfile: the request's
                options = [Inst(frozenset({"net"}), "http.server.handler")]
            elif index == 0 and id(node) in self.net_methods:
                options = [Inst(frozenset({"net", "sockfd"}), "socketserver.handler")]
            elif id(node) in self.net_methods and getattr(node, "name", "") in ("data_received", "datagram_received"):
                options = [Unknown(frozenset({"net"}))]
            # what the call sites pass carries its marks into the body (secrets, network data, a
            # system file's contents...), and "param": it came from a caller, across a function
            kept = tuple(options[:MAX_ALTERNATIVES])
            marks = (_flags_of(kept) - {"obfname", "indirect", "partial"}) | {"param"}
            self.env[param] = Alt(marks, kept) if options else UNKNOWN
        for param in others:
            self.env[param] = UNKNOWN
        if args.vararg is not None and sites:  # *rest: the call sites' extra positional arguments
            extra = [Seq(NO_FLAGS, tuple(site_args[len(params):])) for site_args, _ in sites if len(site_args) > len(params)]
            if extra:
                self.env[args.vararg.arg] = Alt(_flags_of(extra) | {"param"}, tuple(extra))

        def restore() -> None:
            for param, value in saved.items():
                if value is None:
                    self.env.pop(param, None)
                else:
                    self.env[param] = value

        return restore

    def _iter_value(self, iterable: V) -> V:
        if isinstance(iterable, Alt) and iterable.options and len(iterable.options) <= 8:
            each = tuple(self._iter_value(option) for option in iterable.options)
            if all(isinstance(item, (Inst, Str, Seq)) for item in each):
                return Alt(iterable.flags, each)
        if isinstance(iterable, Inst) and iterable.kind == "tuple:socket.accept":
            return iterable
        if isinstance(iterable, Inst) and iterable.kind in ("os.walk", "os.fwalk") and iterable.path is not None:
            return Seq(iterable.flags, (Str(iterable.flags, iterable.path), UNKNOWN, UNKNOWN))  # (dirpath, dirnames, filenames)
        if isinstance(iterable, Inst) and iterable.kind == "os.scandir" and iterable.path is not None:
            return Inst(iterable.flags, "os.DirEntry", f"{iterable.path.rstrip('/')}/{PH}")
        if isinstance(iterable, Inst) and iterable.kind == "pwd.all":
            return Inst(NO_FLAGS, "pwd.struct_passwd")
        if isinstance(iterable, Inst) and iterable.kind == "psutil.process_iter":
            return Inst(frozenset({"foreignproc"}), "psutil.Process")
        if isinstance(iterable, Inst) and iterable.kind == "psutil.Process:own#children":
            return Inst(NO_FLAGS, "psutil.Process:own")
        if isinstance(iterable, Inst) and iterable.kind == "pathlib.Path#iter":
            return Inst(iterable.flags, "pathlib.Path", iterable.path)
        return Unknown(iterable.flags - {"sockfd", "obfname", "indirect"})

    @staticmethod
    def _own_process(value: V) -> bool:
        """A process object or pid of this program or of a child it started."""
        if isinstance(value, Alt):
            return bool(value.options) and all(_Analysis._own_process(option) for option in value.options)
        if isinstance(value, Inst) and (value.kind in R.CHILD_MAKERS or value.kind.startswith("psutil.Process:own")):
            return True
        return "ownpid" in value.flags

    @staticmethod
    def _foreign_process(value: V | None) -> bool:
        """A process the program found rather than started (psutil's enumeration, a pid it was given)."""
        if value is None:
            return False
        if isinstance(value, Alt):
            return "foreignproc" in value.flags or any(_Analysis._foreign_process(option) for option in value.options)
        if isinstance(value, Ref) and value.recv is not None and _Analysis._foreign_process(value.recv):
            return True
        return "foreignproc" in value.flags

    def _loop_for(self, node: ast.AST, iter_node: ast.AST | None) -> _Loop:
        infinite, bound, sweep, outside = False, None, None, None
        if iter_node is not None:
            value = self.ev(iter_node)
            items = self._iterate(value)
            if items is not None and "sampled" not in value.flags:
                bound = len(items)
            while isinstance(iter_node, ast.Call) and iter_node.args and isinstance(iter_node.func, ast.Name) and \
                    iter_node.func.id in ("sorted", "list", "reversed", "enumerate", "tuple", "set"):
                iter_node = iter_node.args[0]  # sorted(base.rglob("*")): the walk inside
            if isinstance(iter_node, ast.BinOp) and isinstance(iter_node.op, ast.Add):
                # glob(a) + glob(b): the walks on either side
                operands = [iter_node.left, iter_node.right]
                while isinstance(operands[0], ast.BinOp) and isinstance(operands[0].op, ast.Add) and len(operands) < 16:
                    operands[0:1] = [operands[0].left, operands[0].right]
                for operand in operands:
                    inner = self._loop_for(operand, operand) if isinstance(operand, ast.Call) else None
                    if inner is not None:
                        if self.pass_no == 2:
                            self.loops.remove(inner)
                        sweep, outside = sweep or inner.sweep, outside or inner.outside
            if isinstance(iter_node, ast.Call):
                func = self.ev(iter_node.func)
                funcs = [o for o in func.options if isinstance(o, Ref)] if isinstance(func, Alt) else [func]
                if funcs and isinstance(funcs[0], Ref):
                    func = funcs[0]
                q = func.qual if isinstance(func, Ref) else ""
                args = [self.ev(a) for a in iter_node.args]
                targets: list[V] = []
                if q in R.SWEEPS:  # `self.root.rglob` where self.root may be several paths: every one of them
                    for option in funcs:
                        if isinstance(option, Ref) and option.qual == q:
                            targets.append(option.recv if option.recv is not None else (args[0] if args else UNKNOWN))
                if q == "builtins.range" and args and all(isinstance(a, Num) and isinstance(a.value, int) for a in args):
                    bound = len(range(*(a.value for a in args)))  # type: ignore[union-attr]
                elif q in ("itertools.count", "itertools.cycle") or (q == "itertools.repeat" and len(args) < 2) or (
                    q == "builtins.iter" and len(args) == 2
                ):
                    infinite = True
                elif q in R.SWEEPS:
                    for text in [text for target in targets for text in _strings(target)][:32]:
                        if not text.replace(PH, "").strip("*"):
                            continue
                        if wipe_target(text.replace(PH, "").rstrip("*") or "/") or wipe_target(text.split("*")[0] or "/"):
                            sweep = normalise_path(text)
                        elif self.paths is not None and self.paths.outside(_listed_folder(text)):
                            outside = normalise_path(_listed_folder(text))
        loop = _Loop(node, infinite=infinite, bound=bound, sweep=sweep, outside=outside)
        self._register_loop(loop)
        return loop

    def _register_loop(self, loop: _Loop) -> None:
        if self.pass_no == 2:
            self.loops.append(loop)

    def _bind_target(self, target: ast.AST, value: V) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, Inst) and value.kind == "tuple:socket.accept":
                items: list[V] = [Inst(frozenset({"sockfd"}), "socket.socket"), UNKNOWN]
            elif isinstance(value, Seq) and len(value.items) == len(target.elts):
                items = list(value.items)
            elif isinstance(value, Alt):
                items = [Alt(value.flags, tuple(o.items[i] for o in value.options if isinstance(o, Seq) and len(o.items) > i))
                         for i in range(len(target.elts))]
            elif isinstance(value, Inst) and value.kind == "socket.socket":  # reader, writer = open_connection()
                items = [Inst(frozenset({"sockfd", "net"}), "socket.socket") for _ in target.elts]
            else:
                items = [Unknown(value.flags - {"sockfd", "obfname", "indirect"}) for _ in target.elts]
            for element, item in zip(target.elts, items):
                self._bind_target(element.value if isinstance(element, ast.Starred) else element, item)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            # `self.root = root`: kept by attribute name for every object (flow- and class-insensitive)
            known = self.attrs.get(target.attr)
            if known is None or known == value:
                self.attrs[target.attr] = value
            else:
                options = known.options if isinstance(known, Alt) else (known,)
                added = value.options if isinstance(value, Alt) else (value,)  # kept flat: Alt of Alts is opaque
                self.attrs[target.attr] = Alt(NO_FLAGS, tuple(dict.fromkeys((*options, *added)))[:MAX_ALTERNATIVES])
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            # `found[key] = p.read_text()`: the container now holds it (its marks, not the item)
            current = self.env.get(target.value.id)
            marks = _flags_of([value]) - {"obfname", "indirect", "partial", "built", "sockfd"}
            if current is not None and not isinstance(current, Ref) and marks:
                self.env[target.value.id] = _with(current, marks)

    def _on_assign(self, node: ast.AST, ctx: _Ctx) -> None:
        if isinstance(node, ast.AugAssign):
            if not isinstance(node.target, ast.Name):
                return
            name = node.target.id
            current = self.env.get(name, UNKNOWN)
            loop = ctx.loops[-1] if ctx.loops else None
            per_item = self._loop_items(loop) if loop is not None else None
            if per_item is not None:  # s += f(c) for each c of a constant list: fold the whole loop
                var, items = per_item
                saved, memo = self.env.get(var), self.memo
                self.memo = None
                try:
                    for item in items:
                        self.env[var] = item
                        current = self._binop(node.op, current, self.ev(node.value))
                finally:
                    self.memo = memo
                    if saved is not None:
                        self.env[var] = saved
                self.env[name] = current
            else:
                self.env[name] = self._binop(node.op, current, self.ev(node.value))
            return
        value = self.ev(node.value) if node.value is not None else UNKNOWN  # type: ignore[attr-defined]
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
        if ctx.loops and len(targets) == 1 and isinstance(targets[0], ast.Name) and node.value is not None \
                and targets[0].id in _names_in(node.value) and _climbs(value):
            # `top = top.parent` (or os.path.dirname) in a loop: some ancestor, perhaps the top
            value = Inst(value.flags, "pathlib.Path", PH) if isinstance(value, Inst) else Str(value.flags | {"partial"}, PH)
        for target in targets:
            self._bind_target(target, value)
        if self.pass_no == 2:
            for text in _folded_strings(value):
                self._on_text(node, text, ctx, folded=True)

    def _loop_items(self, loop: _Loop) -> tuple[str, list[V]] | None:
        node = loop.node
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            items = self._iterate(self.ev(node.iter))
            if items is not None and len(items) <= 100_000:
                return node.target.id, items
        return None

    def _on_import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.env[alias.asname] = Ref(NO_FLAGS, _canonical(alias.name))
                else:
                    top = alias.name.split(".")[0]
                    self.env[top] = Ref(NO_FLAGS, _canonical(top))
                if self.pass_no == 2:
                    self._check_package(node, alias.name)
            return
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name == "*":
                if module not in self.star_modules:
                    self.star_modules.append(module)
                continue
            self.env[alias.asname or alias.name] = Ref(NO_FLAGS, _canonical(f"{module}.{alias.name}"))
        if self.pass_no == 2 and node.level == 0 and node.module:
            self._check_package(node, node.module)

    # ---- pass-two judgements ------------------------------------------------------------------

    def hit(self, rule: str, node: ast.AST | None, detail: str, confidence: str = "HIGH", level: RiskLevel | None = None) -> None:
        if self.pass_no != 2:
            return
        line = getattr(node, "lineno", 0) or 0
        column = getattr(node, "col_offset", 0) or 0
        self.hits.append(Hit(rule, line, column, detail, confidence, level))

    def _check_package(self, node: ast.AST, name: str) -> None:
        top = name.split(".")[0]
        if not top or top in sys.stdlib_module_names:
            return
        for candidate in {top, name}:
            normal = normalise_package(candidate)
            if normal in self.threats.packages:
                reference = self.threats.packages[normal]
                self.hit("known-threat-package", node, f"imports `{candidate}`, a known-malicious package"
                         + (f" ({reference})" if reference else ""))
                return

    def _on_name(self, node: ast.AST) -> None:
        name = node.id if isinstance(node, ast.Name) else node.attr  # type: ignore[attr-defined]
        if name in R.EXECUTABLE_MEMORY_NAMES:
            self.exec_memory_names.append(node)
        if name in ("SOCK_RAW", "AF_PACKET") and isinstance(node, ast.Attribute):
            self.hit("privileged-call", node, f"opens a raw socket ({name}), which needs CAP_NET_RAW", "MEDIUM")

    def _on_text(self, node: ast.AST, text: str, ctx: _Ctx, folded: bool = False) -> None:
        if not text or len(text) < 3:
            return
        how = " (assembled at run time)" if folded else ""
        if R.MINER_TEXT.search(text) or (R.MINER_BINARIES.search(text) and re.search(r"(^|[/\s])\.?/?" + R.MINER_BINARIES.pattern, text, re.I)):
            self.hit("crypto-miner", node, f"mentions a mining pool, protocol, wallet or miner{how}: {_clip(text)}")
        if R.DOCKER_SOCKET_TEXT.search(text):
            self.hit("docker-socket", node, f"refers to the Docker socket{how}")
        if R.SECURITY_PROCESS_NAME.search(text):
            self.security_names.append(node)
        if R.WALLET_TEXT.search(text):
            self.wallet_texts.append(node)
        if R.COMMAND_HINT.search(text):
            for found in command_hits(text, 0, self.paths):
                if found.malicious:
                    self.deferred_text.append((node, found))

    def _on_call(self, node: ast.Call, ctx: _Ctx) -> None:
        func = self.ev(node.func)
        args = self._arguments(node)
        kwargs = {k.arg: self.ev(k.value) for k in node.keywords if k.arg}
        for target, target_args, target_kwargs in _invocations(func, args, kwargs, self._iterate):
            self._on_invocation(node, target, target_args, target_kwargs, ctx)

    def _on_invocation(self, node: ast.Call, func: V, args: list[V], kwargs: dict[str, V], ctx: _Ctx) -> None:
        q = func.qual if isinstance(func, Ref) else ""
        if q in R.CHILD_MAKERS or q in R.FORKS:
            self.makes_children = True
        kinds = self._kinds(q, func, args, kwargs)
        if self._rewrites_in_place(node, q, args, kwargs, ctx):
            kinds = kinds | {"rewrite"}
        if kinds & {"delete", "rewrite", "move"} and any(outside_working_dir(text) for text in self._changed_paths(q, func, args)):
            kinds = kinds | {"outwrite"}  # what it writes or removes lies outside the working directory
        if ctx.func is not None:
            self.func_kinds.setdefault(ctx.func, set()).update(kinds)
        self._learn_from_call(q, func, args, kwargs)
        if "#" in q and q.rsplit("#", 1)[1].rsplit(".", 1)[-1] in ("map", "imap", "imap_unordered", "starmap", "submit", "apply_async") \
                and args and isinstance(args[0], Ref) and args[0].qual.startswith("<local>."):
            self.handed.add(args[0].qual.split(".", 1)[1])
        callee = self._local_callee(q)
        if callee is not None:
            if self.pass_no == 1:
                method = not q.startswith("<local>.") or callee in self.classes
                site_args = [UNKNOWN, *args] if method else args  # a method's or constructor's `self` first
                self.call_sites.setdefault("__init__" if callee in self.classes else callee, []).append((site_args, kwargs))
                if ctx.func is not None:
                    self.func_calls.setdefault(ctx.func, set()).add(callee)
            kinds = kinds | self.func_kinds.get(callee, set())
        for loop in ctx.loops:
            loop.kinds.update(kinds)
        if self.pass_no != 2:
            return
        if ctx.func is not None and q == f"<local>.{ctx.func}" and "fork" in self.func_kinds.get(ctx.func, set()):
            self.hit("fork-bomb", node, f"`{ctx.func}` forks and calls itself, multiplying processes without end")
        self._judge_call(node, q, func, args, kwargs, ctx)

    def _rewrites_in_place(self, node: ast.Call, q: str, args: list[V], kwargs: dict[str, V], ctx: _Ctx) -> bool:
        """Whether this call writes the file a read in the same function (or loop body) read: what
        ransomware does to each file it finds; or overwrites the very file a loop found (truncating
        it). Files are told apart by how the code names them."""
        method = q.split("#", 1)[1] if "#" in q else ""
        found = {n.id for loop in ctx.loops if isinstance(loop.node, (ast.For, ast.AsyncFor))
                 for n in ast.walk(loop.node.target) if isinstance(n, ast.Name)}
        if q.startswith("pathlib.Path#") and method in ("write_bytes", "write_text") and isinstance(node.func, ast.Attribute):
            receiver = ast.unparse(node.func.value)
            if receiver in found:
                return True
            inner = [n for a in node.args for n in ast.walk(a) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                     and n.func.attr in ("read_bytes", "read_text") and ast.unparse(n.func.value) == receiver]
            return bool(inner) or (ctx.func, receiver) in self.read_names
        if q in R.FILE_OPENERS and node.args:
            name = (ctx.func, ast.unparse(node.args[0]))
            mode = args[1] if len(args) > 1 else kwargs.get("mode")
            writing = bool(set(_mode_text(mode)) & set("wa"))
            if "w" in _mode_text(mode) and isinstance(node.args[0], ast.Name) and node.args[0].id in found:
                return True  # open(f, "wb") on each file f a walk found: emptied
            if not writing:
                self.read_names.add(name)
                return False
            return name in self.read_names
        if q.startswith("pathlib.Path#") and method in ("read_bytes", "read_text", "open") and isinstance(node.func, ast.Attribute):
            self.read_names.add((ctx.func, ast.unparse(node.func.value)))
        return False

    @staticmethod
    def _changed_paths(q: str, func: V, args: list[V]) -> list[str]:
        """The paths a writing, moving or deleting call changes, as far as they are known."""
        recv = func.recv if isinstance(func, Ref) else None
        if q.startswith("pathlib.Path#") and isinstance(recv, Inst) and recv.path is not None:
            return [recv.path]
        target = args[1] if q in R.WRITE_DEST_SECOND and len(args) > 1 else args[0] if args else None
        texts = _strings(target)[:16] if target is not None else []
        if q in ("shutil.move", "os.rename", "os.replace") and args:
            texts += _strings(args[0])[:16]
        return [text for text in texts if not text.startswith(PH)]

    def _local_callee(self, q: str) -> str | None:
        """The program's own function (or class) a call reaches: ``f(...)``, or ``obj.f(...)`` /
        ``self.f(...)`` when the program defines a function named ``f``."""
        if q.startswith("<local>."):
            return q.split(".", 1)[1]
        if "#" in q:
            name = q.rsplit("#", 1)[1].rsplit(".", 1)[-1]
            if name in self.local_funcs and not name.startswith("__"):
                return name
        return None

    def _learn_from_call(self, q: str, func: V, args: list[V], kwargs: dict[str, V]) -> None:
        """Facts a call establishes for what follows: argparse defaults, where os.chdir went, files
        holding the program's own pid, functions handed network data as callbacks."""
        recv = func.recv if isinstance(func, Ref) else None
        if q.endswith("#add_argument") and isinstance(recv, Inst) and recv.kind == "argparse.ArgumentParser" and args:
            names = [a.value for a in args if isinstance(a, Str)]
            longs = [n for n in names if n.startswith("--")] or [n for n in names if not n.startswith("-")] or names
            dest = kwargs.get("dest")
            name = dest.value if isinstance(dest, Str) else (longs[0].lstrip("-").replace("-", "_") if longs else None)
            default = kwargs.get("default")
            if name and default is not None and not (isinstance(default, Num) and default.value in (None, True, False)):
                self.arg_defaults[name] = default
        elif q == "os.chdir" and args:
            texts = _strings(args[0])
            if texts and PH not in texts[0]:
                target = texts[0] if texts[0].startswith(("/", "~")) or self.cwd is None else _join([self.cwd, texts[0]])
                self.cwd = posixpath.normpath(target) if target.startswith("/") else target
            else:
                self.cwd = None
        elif q in R.MOCK_PATCHERS and args:
            if isinstance(args[0], Str):  # mock.patch("os.kill"), monkeypatch.setattr("os.kill", ...)
                self.mocked.add(_canonical(args[0].value))
            elif isinstance(args[0], Ref) and len(args) > 1 and isinstance(args[1], Str):  # patch.object(os, "kill")
                self.mocked.add(_canonical(f"{args[0].qual}.{args[1].value}"))
        elif q in ("pathlib.Path#write_text", "pathlib.Path#write_bytes", "file#write") and args and "ownpid" in args[0].flags:
            if isinstance(recv, Inst) and recv.path:
                self.own_pid_files.add(normalise_path(recv.path))
        if self.pass_no == 1:
            for key in ("on_message", "on_data", "on_msg", "message_handler", "on_recv"):
                handler = kwargs.get(key)
                if isinstance(handler, Ref) and handler.qual.startswith("<local>.") and (q.startswith(R.NETWORK_PREFIXES) or "socket" in q.lower()):
                    network_data = Unknown(frozenset({"net"}))
                    self.call_sites.setdefault(handler.qual.split(".", 1)[1], []).append(([network_data, network_data], {}))

    def _in_cwd(self, text: str) -> str:
        """A relative path as seen after the program's os.chdir, if it changed to a known folder."""
        if self.cwd is None or text.startswith(("/", "~")) or PH in text[:1]:
            return text
        return _join([self.cwd, text])

    def _kinds(self, q: str, func: V, args: list[V], kwargs: dict[str, V]) -> set[str]:
        kinds: set[str] = set()
        method = q.split("#", 1)[1].split(".")[-1] if "#" in q else q.rsplit(".", 1)[-1]
        if q in R.FORKS:
            kinds.add("fork")
        if q in R.NONBLOCKING_SPAWN or q.endswith(("Process#start",)) or (q in R.SPAWN_FAMILY and args and isinstance(args[0], Ref)
                                                                           and args[0].qual.endswith("P_NOWAIT")):
            kinds.add("spawn")
        if q in ("os.system",) and any(t.rstrip().endswith("&") for a in args[:1] for t in _strings(a)):
            kinds.add("spawn")
        if q in R.WAITS or ("#" in q and method in R.WAIT_METHODS):
            kinds.add("wait")
        if q in R.COMMANDS or q in R.CODE_EXEC:
            kinds.add("exec")
        if (q.startswith("socket.socket#") and method in R.SOCKET_RECV_METHODS) or (q.startswith(R.HTTP_FETCH_PREFIXES) and "#" not in q):
            kinds.add("recv")
        if "#" in q and method in ("recv", "recvfrom", "read", "readline") and func.flags & {"net", "sockfd"}:
            kinds.add("recv")
        if method == "accept":
            kinds.add("accept")
        if q in R.DELETES or (q.startswith("pathlib.Path#") and method in R.PATH_DELETE_METHODS | {"write_bytes", "write_text"}) or (
                "#" in q and method in ("unlink", "rmdir", "rmtree")):  # p.unlink() on whatever a walk gave
            kinds.add("delete")
        modes = [_mode_text(m) for m in args[1:2] + [kwargs.get("mode", UNKNOWN)]] if q in R.FILE_OPENERS else \
            [_mode_text(m) for m in args[:1] + [kwargs.get("mode", UNKNOWN)]] if q == "pathlib.Path#open" else []
        if any(set(m) & set("wax+") for m in modes):
            kinds.add("delete")
        if any("+" in m and "w" not in m for m in modes):
            kinds.add("rewrite")  # opened to read and write in place
        if q in ("os.rename", "os.replace", "shutil.move") or (q.startswith("pathlib.Path#") and method in ("rename", "replace")):
            kinds.add("move")
        if q in R.KILLS or ("#" in q and method in R.KILL_METHODS):
            kinds.add("kill")
        if "#" in q and method in R.ENCRYPT_METHODS:
            kinds.add("encrypt")
        if "#" in q and method in ("execute", "executescript", "executemany") and any(
                R.DESTRUCTIVE_SQL.match(text) for a in args[:1] for text in _strings(a)):
            kinds.add("delete")  # DROP TABLE / DELETE FROM in each database a walk found
        return kinds

    def _judge_call(self, node: ast.Call, q: str, func: V, args: list[V], kwargs: dict[str, V], ctx: _Ctx) -> None:
        a0 = args[0] if args else None
        for value in [*args, *kwargs.values()]:
            for text in _folded_strings(value):
                self._on_text(node, text, ctx, folded=True)
        dangerous = isinstance(func, Ref) and _is_dangerous(q)
        if dangerous and "obfname" in func.flags:
            self.hit("obfuscated-call", node, f"reaches `{q.removeprefix('builtins.')}` through a name assembled at run time")
        elif dangerous and "indirect" in func.flags:
            self.hit("indirect-call", node, f"reaches `{q.removeprefix('builtins.')}` indirectly (getattr/__import__/globals)", "MEDIUM")
        if q in ("builtins.__import__", "importlib.import_module", "importlib.util.find_spec") and a0 is not None:
            self._judge_import_call(node, q, a0)
        if q in R.CODE_EXEC:
            self._judge_code_exec(node, q, a0, ctx)
        elif q in ("types.FunctionType", "types.LambdaType") and isinstance(a0, Code) and "marshal" in a0.flags:
            self.hit("obfuscated-exec", node, "builds a function from marshalled bytecode")
        if q in R.COMMANDS:
            self._judge_command(node, q, args, kwargs, ctx)
        if q in R.FORKS:
            self._judge_fork(node, ctx)
        if q == "os.dup2" and a0 is not None and "sockfd" in a0.flags:
            self.hit("reverse-shell", node, "redirects a standard stream onto a socket (os.dup2), the core of a reverse shell")
        if q in R.DESERIALIZERS or (q == "yaml.load" and not any("Safe" in getattr(v, "qual", "") for v in [*args[1:], *kwargs.values()])):
            self.hit("deserialization", node, f"`{q}` can run code hidden in the data it loads", "MEDIUM")
        self._judge_files(node, q, func, args, kwargs, ctx)
        self._judge_network(node, q, func, args, kwargs)
        self._judge_privileged(node, q, func, args, kwargs)
        if q in R.WEAK_HASHES and not (isinstance(kwargs.get("usedforsecurity"), Num) and kwargs["usedforsecurity"].value is False):  # type: ignore[union-attr]
            self.hit("weak-crypto", node, f"`{q}` is a broken hash for security purposes", "MEDIUM")
        elif q == "hashlib.new" and isinstance(a0, Str) and a0.value.lower() in ("md5", "sha1", "md4"):
            self.hit("weak-crypto", node, f"hashlib.new('{a0.value}') is a broken hash for security purposes", "MEDIUM")
        elif q.startswith(R.WEAK_CIPHERS) or (q.endswith(".new") and any(getattr(v, "qual", "").endswith("MODE_ECB") for v in args)):
            self.hit("weak-crypto", node, f"`{q}` is a weak cipher or mode", "MEDIUM")
        if "kill" in self._kinds(q, func, args, kwargs):
            self.kill_calls.append(node)
            if q in R.KILLS and a0 is not None and isinstance(a0, Num) and a0.value in (1, -1):
                self.hit("privileged-call", node, "signals init or every process")
            self._judge_process_control(node, q, func, args, kwargs)
        if q.startswith(("ctypes.", "cffi.", "_ctypes.")) or q in ("ctypes", "cffi.FFI"):
            self.native.append(node)
        if q in R.CLIPBOARD or q.endswith(("#clipboard_get", "#clipboard_append", "#setText", "#text")) and "clipboard" in q.lower():
            self.clipboard.append(node)
        if q in R.SANDBOX_ESCAPES:
            self.hit("docker-socket", node, f"`{q}` talks to the Docker daemon, which is root on the host")

    def _judge_process_control(self, node: ast.Call, q: str, func: V, args: list[V], kwargs: dict[str, V]) -> None:
        """Signalling a process the program did not start: its own children (Popen/Process objects,
        their pids, fork's result, psutil's children of itself) and itself are exempt."""
        method = q.split("#", 1)[1].rsplit(".", 1)[-1] if "#" in q else ""
        lesser = ""
        if q in R.KILLS:
            if not args:
                return
            target: V = args[0]
            signal = args[1] if len(args) > 1 else kwargs.get("signalnum") or kwargs.get("sig") or kwargs.get("signal")
            if q == "signal.pthread_kill":
                return  # a thread of this program
            foreign = self._foreign_process(target)
            if not foreign and self._own_process(target):
                return
            if not foreign and ("cwdpid" in target.flags or q in self.mocked):
                lesser = "replaced by a mock in this program (a test)" if q in self.mocked else \
                    "whose pid it read from a pid file in its working directory (its own service or worker)"
            if not foreign and isinstance(target, Ref) and "#" in target.qual and target.qual.endswith(("#pid", ".pid")) and self.makes_children:
                return  # `<something>.pid` in a program that starts children: most likely one of them
            what = "a process it found (psutil)" if foreign else "a process it did not start"
        elif method in R.KILL_METHODS:
            recv = func.recv if isinstance(func, Ref) else None
            if not self._foreign_process(recv) or self._own_process(recv or UNKNOWN):
                return
            signal = args[0] if method == "send_signal" and args else None
            what = "a process it found (psutil)"
        else:
            return
        name = ""
        if isinstance(signal, Num) and isinstance(signal.value, int):
            if signal.value == 0:
                return  # only checks that the pid exists
        if lesser:
            self.hit("process-signal", node, f"signals a process ({q.rsplit('.', 1)[-1]}) {lesser}", "MEDIUM")
            return
        if isinstance(signal, Num) and isinstance(signal.value, int):
            name = "gentle" if signal.value in R.GENTLE_SIGNAL_NUMBERS else ""
        elif isinstance(signal, Ref):
            name = "gentle" if signal.qual.rsplit(".", 1)[-1] in R.GENTLE_SIGNALS else ""
        verb = method or q.rsplit(".", 1)[-1]
        if name == "gentle":
            self.hit("process-signal", node, f"sends a signal ({verb}) to {what}", "MEDIUM")
        else:
            self.hit("process-control", node, f"stops or kills {what} ({verb}); only the program's own children are its to stop")

    def _judge_import_call(self, node: ast.AST, q: str, name: V) -> None:
        if isinstance(name, Str):
            module = name.value
            if name.flags & {"built", "encoded", "opaque"}:
                if module.split(".")[0] in R.DANGEROUS_MODULES:
                    self.hit("obfuscated-call", node, f"imports `{module}` through a name assembled at run time")
                else:
                    self.hit("dynamic-import", node, f"imports `{module}` through a name assembled at run time", "MEDIUM")
            elif module.split(".")[0] in R.DANGEROUS_MODULES:
                self.hit("indirect-call", node, f"imports `{module}` through {q.split('.')[-1]}()", "MEDIUM")
            self._check_package(node, module)
        elif name.flags & ENCODING_FLAGS:
            self.hit("obfuscated-call", node, "imports a module whose name is decoded at run time")
        else:
            self.hit("dynamic-import", node, "imports a module whose name is only known at run time", "MEDIUM")

    def _judge_code_exec(self, node: ast.AST, q: str, payload: V | None, ctx: _Ctx) -> None:
        name = q.removeprefix("builtins.")
        if payload is None:
            return
        if "net" in payload.flags:
            self.hit("remote-command-exec", node, f"{name}() runs code received over the network")
            return
        if isinstance(payload, Code) and "marshal" in payload.flags:
            self.hit("obfuscated-exec", node, f"{name}() runs marshalled bytecode, which cannot be reviewed")
            return
        sources = [s for s in _strings(payload) if PH not in s]
        if isinstance(payload, Code) and payload.source is not None:
            sources = [payload.source]
        encoded = bool(payload.flags & ENCODING_FLAGS)
        if not sources:
            if encoded:
                self.hit("obfuscated-exec", node, f"{name}() runs a payload that is decoded at run time")
            elif q in ("runpy.run_path", "runpy.run_module", "builtins.execfile"):
                self.hit("code-exec", node, f"{name}() runs another file's code", "MEDIUM")
            else:
                self.hit("code-exec", node, f"{name}() runs text computed at run time", "MEDIUM")
            return
        inner: list[Hit] = []
        for source in sources[:8]:
            inner.extend(self._payload_hits(source))
        for found in inner:
            self.hits.append(Hit(found.rule, getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
                                 f"in the code passed to {name}(): {found.detail}", found.confidence, found.level))
        risky = [h for h in inner if h.rule not in ("indirect-call", "network", "outside-write", "weak-crypto", "process-fork",
                                                    "recursive-delete", "parse-failed")]
        if encoded:
            shown = f": {_clip(sources[0])}" if sources[0].strip() else ""
            self.hit("obfuscated-exec", node, f"{name}() runs code that is decoded at run time{shown}")
        elif payload.flags & {"built"} and risky:
            self.hit("obfuscated-exec", node, f"{name}() runs code assembled from pieces: {_clip(sources[0])}")
        elif payload.flags & {"built"} or isinstance(payload, Code) and q != "builtins.compile":
            self.hit("code-exec", node, f"{name}() runs code assembled at run time", "MEDIUM")

    def _payload_hits(self, source: str) -> list[Hit]:
        if self.depth >= MAX_PAYLOAD_DEPTH or len(source) > 256_000:
            return [Hit("obfuscated-exec", 0, 0, "nests executed code deeper than the analyzer follows")] if self.depth >= MAX_PAYLOAD_DEPTH else []
        try:
            tree = parse_python(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return [Hit(h.rule, 0, 0, h.detail, "MEDIUM", h.level) for h in _token_hits(source, self.threats, paths=self.paths)]
        nested = _Analysis(self.threats, self.depth + 1, self.paths)
        nested.run(tree)
        return nested.hits

    def _judge_command(self, node: ast.Call, q: str, args: list[V], kwargs: dict[str, V], ctx: _Ctx) -> None:
        self.command_sinks.append(node)
        if q in R.SPAWN_FAMILY:
            command = Seq(NO_FLAGS, tuple(args[2:])) if q.endswith(("l", "le", "lp", "lpe")) else (args[2] if len(args) > 2 else UNKNOWN)
        elif q in R.EXEC_FAMILY:
            command = Seq(NO_FLAGS, tuple(args[1:])) if "l" in q.split(".")[-1][4:] else (args[1] if len(args) > 1 else UNKNOWN)
        elif q in R.POSIX_SPAWN:
            command = args[1] if len(args) > 1 else UNKNOWN
        elif q in ("asyncio.create_subprocess_exec",):
            command = Seq(NO_FLAGS, tuple(args))
        else:
            command = args[0] if args else kwargs.get("args") or kwargs.get("cmd") or kwargs.get("command") or UNKNOWN
        flags = command.flags | _flags_of([command])
        label = q.replace("builtins.", "")
        self.hit("command-exec", node, f"runs a command with {label}", "MEDIUM")
        if "net" in flags:
            self.hit("remote-command-exec", node, f"{label} runs a command received over the network")
        if flags & ENCODING_FLAGS:
            self.hit("obfuscated-exec", node, f"{label} runs a command that is decoded at run time")
        texts = _command_texts(command)
        tool = next((program_name(argv[0]) for _, argv in texts if argv and program_name(argv[0]) in R.SENDING_TOOLS), None)
        if tool is not None and "secret" in flags:
            self.hit("exfiltration", node, f"hands credentials to `{tool}`, which sends them over the network")
        elif tool is not None and "sysfile" in flags and flags & {"param", "sliced"}:
            # in one function this flow is Semgrep's; through slices (ping -p with 16 bytes at a
            # time) and across functions it is ours, as for sends (decision 0010)
            how = "handed over from another function" if "param" in flags else "in slices"
            self.hit("send-system-file", node, f"puts the contents of a file outside the working directory, {how}, on the "
                     f"command line of `{tool}`, which sends them over the network")
        for text, argv in texts:
            for found in (command_hits(text, 0, self.paths) if not argv else _argv_or_text_hits(argv, self.paths)):
                self.hit(found.rule, node, f"{found.detail} ({label}: {_clip(text)})")
            for segment in ([argv] if argv else command_segments(text)[:16]):
                for operation, path in command_path_ops(segment):
                    self._judge_path(node, _listed_folder(path) if operation == "list" else path, operation)
            words = argv or (command_segments(text)[0] if command_segments(text) else [])
            if words and (program_name(words[0]) in R.SHELLS) and not ({"-c", "/c", "-command"} & {w.lower() for w in words[1:]}):
                self.shell_spawns.append(node)
            for package in _pip_packages(argv or text.split()):
                self._check_package(node, package)
            if self.writes_compose and len(words) > 1 and (program_name(words[0]) == "docker-compose" or (
                    program_name(words[0]) == "docker" and words[1] == "compose")):
                self.hit("docker-socket", node, f"runs containers from a compose file or Dockerfile the program wrote itself ({label}: "
                         f"{_clip(text)})")
        if q in R.PTY_SPAWN:
            self.shell_spawns.append(node)
        for stream in ("stdin", "stdout", "stderr"):
            value = kwargs.get(stream)
            if value is not None and "sockfd" in value.flags:
                self.hit("reverse-shell", node, f"connects the command's {stream} to a socket, handing it to a remote party")
                break
        if "self" in flags and any(loop.infinite for loop in ctx.loops):
            self.hit("fork-bomb", node, "starts copies of this program in an endless loop")

    def _judge_fork(self, node: ast.AST, ctx: _Ctx) -> None:
        if not ctx.loops:
            self.hit("process-fork", node, "forks the process", "MEDIUM")
            return
        if any(loop.infinite or isinstance(loop.node, ast.While) for loop in ctx.loops):
            return  # judged with the loop: a forking server that accepts connections is not a bomb
        bounds = [loop.bound for loop in ctx.loops]
        if any(bound is None for bound in bounds):
            self.hit("unbounded-fork", node, "forks inside a loop whose length is not known")
            return
        total = 1
        for bound in bounds:
            total *= max(bound or 0, 1)
        if total > 64:
            self.hit("fork-bomb", node, f"forks {total} times in a loop")
        else:
            self.hit("process-fork", node, f"forks {total} time(s) in a loop", "MEDIUM")

    def _judge_files(self, node: ast.Call, q: str, func: V, args: list[V], kwargs: dict[str, V], ctx: _Ctx) -> None:
        writes: list[V] = []
        deletes: list[V] = []
        reads: list[V] = []  # certainly read: rated by the sensitive-path model
        mentions: list[V] = []  # handed to some other call: only credentials count
        lists: list[V] = []
        method = q.split("#", 1)[1] if "#" in q else ""
        recv = func.recv if isinstance(func, Ref) else None
        if q in R.LISTERS:
            if q.startswith("pathlib.Path#"):
                base = recv.path if isinstance(recv, Inst) and recv.path is not None else None
                if base is not None:
                    pattern = args[0].value if args and isinstance(args[0], Str) else ""
                    lists.append(Str(NO_FLAGS, base))
                    if pattern:  # what the pattern looks for: Path.home().rglob(".env*")
                        deep = f"{PH}/" if method == "rglob" else ""
                        lists.append(Str(NO_FLAGS, f"{base.rstrip('/')}/{deep}{_wildcards_unknown(pattern)}"))
            else:
                target = args[0] if args else kwargs.get("top") or kwargs.get("path") or kwargs.get("pathname") or Str(NO_FLAGS, ".")
                lists.append(target)
                if q in ("glob.glob", "glob.iglob"):
                    lists.extend(Str(NO_FLAGS, _wildcards_unknown(text)) for text in _strings(target)[:16] if "*" in text or "?" in text)
        if q in R.FILE_OPENERS and args:
            mode = args[1] if len(args) > 1 else kwargs.get("mode") or kwargs.get("flags")
            mode_text = _mode_text(mode)
            if q == "os.open":
                names = {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)} if len(node.args) > 1 else set()
                mode_text = "w" if names & {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"} else "r"
            (writes if set(mode_text) & set("wax+") else reads).append(args[0])
        elif q.startswith("pathlib.Path#") and isinstance(recv, Inst):
            path_value = Str(NO_FLAGS, recv.path) if recv.path is not None else UNKNOWN
            if method in R.PATH_WRITE_METHODS:
                writes.append(path_value)
            elif method in R.PATH_DELETE_METHODS:
                deletes.append(path_value)
            elif method in R.PATH_READ_METHODS and method not in ("iterdir", "glob", "rglob"):
                if method == "open" and any(set(_mode_text(m)) & set("wax+") for m in args[:1] + [kwargs.get("mode", UNKNOWN)]):
                    writes.append(path_value)
                else:
                    reads.append(path_value)
            elif method in ("chmod", "lchmod"):
                self._judge_permission(node, "chmod", path_value, args[0] if args else UNKNOWN)
        elif q in R.FILE_READERS and args:
            reads.append(args[0])
        elif q in R.WRITE_DEST_SECOND and len(args) > 1:
            writes.append(args[1])
            if q in ("shutil.move", "os.rename", "os.replace"):
                deletes.append(args[0])  # moved away: gone from where it was
            reads.append(args[0])
        elif q in R.WRITE_DEST_FIRST and args:
            writes.append(args[0])
        elif q in R.DELETES and args:
            deletes.append(args[0])
        elif q in R.PERMISSIONS and args:
            self._judge_permission(node, q.split(".")[-1], args[0], args[1] if len(args) > 1 else UNKNOWN)
        elif q.endswith(".from_private_key_file") or q.endswith("#load_system_host_keys"):
            self._judge_key_use(node, args[:1])
        elif q not in R.PATH_ONLY and not q.startswith(("pathlib.Path", "os.path.")) and q not in R.COMMANDS and q not in R.LISTERS:
            mentions.extend(v for v in args if isinstance(v, (Str, Inst, Alt)))
            mentions.extend(v for k, v in kwargs.items() if isinstance(v, (Str, Inst, Alt)) and k not in R.AUTH_KEY_ARGUMENTS)
            self._judge_key_use(node, [v for k, v in kwargs.items() if k in R.AUTH_KEY_ARGUMENTS])
        for value in reads:
            for text in _strings(value)[:16]:
                if self._judge_path(node, text, "read"):
                    break
        for value in mentions:
            for text in _strings(value):
                label = secret_label(text, self.paths)
                if label:
                    self.hit("secret-file-read", node, f"reads {label} ({_clip(text)})")
                    self.secret_reads.append((node, label))
                    break
                if R.PRIVILEGED_DEVICES.match(normalise_path(text)):
                    self.hit("privileged-call", node, f"opens the device {text}")
        for value in lists:
            for text in _strings(value)[:16]:
                if self._judge_path(node, text if PH in text else _listed_folder(text), "list"):
                    break
        for value in writes:
            for text in _strings(value):
                self._judge_write_target(node, text, "writes")
                if re.search(r"(^|/)((docker-)?compose[^/]*\.ya?ml|Dockerfile[^/]*)$", text):
                    self.writes_compose = True  # its `docker compose up` runs what it wrote, not the project's
        for value in deletes:
            texts = _strings(value)
            if not texts and q == "shutil.rmtree":
                self.hit("recursive-delete", node, "deletes a folder tree whose path is only known at run time", "MEDIUM")
            for text in texts:
                climbed = path_forms(text, unknown_base=False) if ".." in text.split("/") else []
                if climbed and climbed[0] != text and wipe_target(climbed[0]):
                    self.hit("destructive-wipe", node, f"deletes {text}, which climbs out to {climbed[0]}")
                elif text.replace(PH, "").strip("*") and wipe_target(text.replace(PH, "*")) and PH not in text.rstrip(PH + "*/"):
                    self.hit("destructive-wipe", node, f"deletes {normalise_path(text)}, a top-level folder or home")
                elif R.SECURITY_PATHS.search(normalise_path(text)):
                    self.hit("disable-security", node, f"deletes {normalise_path(text)}, erasing logs or security settings")
                else:
                    self._judge_write_target(node, text, "deletes", quiet_outside=q != "shutil.rmtree")

    def _judge_path(self, node: ast.AST, text: str, operation: str) -> bool:
        """Rate one read or listing by the sensitive-path model; True if it said something."""
        text = self._in_cwd(text)
        if operation == "read":
            label = secret_label(text, self.paths)
            if label:
                self.hit("secret-file-read", node, f"reads {label} ({_clip(text)})")
                self.secret_reads.append((node, label))
                return True
            if R.PRIVILEGED_DEVICES.match(normalise_path(text)):
                self.hit("privileged-call", node, f"opens the device {text}")
                return True
        rating = self.paths.rate(text, operation) if self.paths is not None else None
        if rating is None or rating.level < RiskLevel.MEDIUM:
            return False
        verb = {"read": "reads", "list": "lists"}[operation]
        self.hit(f"sensitive-{operation}", node, f"{verb} {_clip(rating.form)} ({rating.name})", level=rating.level)
        return True

    def _judge_key_use(self, node: ast.AST, values: list[V]) -> None:
        """A key handed to a client to log in with is used, not sent: HIGH, and not a read that
        would make a later network call look like exfiltration."""
        for value in values:
            for text in _strings(value):
                label = secret_label(text, self.paths)
                if label:
                    self.hit("credential-use", node, f"logs in with {label} ({_clip(text)})")
                    return

    def _judge_write_target(self, node: ast.AST, text: str, verb: str, quiet_outside: bool = False) -> None:
        operation = "delete" if verb == "deletes" else "write"
        text = self._in_cwd(text)
        rating = self.paths.rate(text, operation) if self.paths is not None else None
        if rating is not None and rating.level >= RiskLevel.MEDIUM:
            self.hit(f"sensitive-{operation}", node, f"{verb} {_clip(rating.form)} ({rating.name})", level=rating.level)
        target = normalise_path(text)
        if PH in target.split("/")[0] or target == PH:
            return
        if R.SECURITY_PATHS.search(target):
            self.hit("disable-security", node, f"{verb} {target}, which disables protection or erases logs")
        elif R.PERSISTENCE_BACKDOOR_PATHS.search(target):
            self.hit("persistence-backdoor", node, f"{verb} {target}, granting lasting access")
        elif R.PRIVILEGED_DEVICES.match(target):
            self.hit("destructive-wipe", node, f"{verb} the disk device {target} directly")
        elif R.PERSISTENCE_PATHS.search(target):
            self.hit("persistence", node, f"{verb} {target}, which runs code at start-up or on a schedule")
        elif system_path(target):
            self.hit("system-path-write", node, f"{verb} {target}, a system path")
        elif outside_working_dir(target) and not quiet_outside:
            self.hit("outside-write", node, f"{verb} {target}, outside the working directory", "MEDIUM")

    def _judge_permission(self, node: ast.AST, what: str, path: V, mode: V) -> None:
        texts = _strings(path)
        if what in ("chmod", "lchmod", "fchmod") and isinstance(mode, Num) and isinstance(mode.value, int) and mode.value & 0o6000:
            self.hit("system-path-permission", node, f"sets the set-uid/set-gid bit ({oct(mode.value)})")
        elif what in ("chmod", "lchmod", "fchmod") and isinstance(mode, Unknown) is False and getattr(mode, "qual", "").endswith(("S_ISUID", "S_ISGID")):
            self.hit("system-path-permission", node, "sets the set-uid/set-gid bit")
        elif what in ("chown", "lchown", "fchown") or any(system_path(t) for t in texts):
            where = texts[0] if texts else "a file"
            self.hit("system-path-permission", node, f"{what} on {where}")

    def _judge_network(self, node: ast.Call, q: str, func: V, args: list[V], kwargs: dict[str, V]) -> None:
        top = q.split("#")[0]
        is_net = top.startswith(R.NETWORK_PREFIXES) or (func.flags & {"sockfd"} and "#" in q) or top in R.DNS_LOOKUPS
        if not is_net or top.startswith(R.NETWORK_HELPERS):
            return  # HTTPBasicAuth(user, password) holds a login for a request; it sends nothing
        method = q.split("#", 1)[1].split(".")[-1] if "#" in q else q.rsplit(".", 1)[-1]
        if "#" in q and method in ("fileno", "setsockopt", "getsockopt", "settimeout", "setblocking", "close", "shutdown",
                                   "getsockname", "getpeername", "gettimeout", "raise_for_status", "json", "iter_content"):
            return  # housekeeping on a connection already reported where it was made
        self.hit("network", node, f"uses the network ({q.replace('#', '().')})", "MEDIUM")
        if method in ("connect", "connect_ex") or q in ("socket.create_connection", "asyncio.open_connection"):
            self.socket_connects.append(node)
        if "#" not in q and q not in R.DNS_LOOKUPS and q[:1].isalpha() and q.rsplit(".", 1)[-1][:1].isupper():
            self.net_sends.append(node)  # a client object (SMTP, FTP, HTTPConnection): it exists to send
        sending = method in R.NET_SEND_METHODS or top in R.DNS_LOOKUPS or q.startswith(R.HTTP_FETCH_PREFIXES)
        if not sending:
            return
        self.net_sends.append(node)
        payload = [*args[1:], *[v for k, v in kwargs.items() if k not in ("headers", "auth", "timeout", "stream", "verify", "cert")]]
        http = top.startswith(("requests", "httpx", "aiohttp", "urllib"))  # requests.put: its headers and auth are not sent data
        if method in ("send", "sendall", "sendto", "sendfile", "write", "send_message", "put", "upload_file", "upload_fileobj") and not (
                http and method == "put") or top in R.DNS_LOOKUPS:
            payload = [*args, *kwargs.values()]
        data_flags = _flags_of(payload) | (args[0].flags if args and ("secret" in args[0].flags or "env-secret" in args[0].flags) else NO_FLAGS)
        if "secret" in data_flags or (top in R.DNS_LOOKUPS and "env-secret" in data_flags):
            self.hit("exfiltration", node, f"sends secrets (credential files or the whole environment) over the network with {q.replace('#', '().')}")
        elif "sysfile" in data_flags and data_flags & {"param", "sliced"}:
            # within one function this flow is Semgrep's (file_flows.yaml); across the program's
            # own functions and through slices its open-source taint analysis does not go: ours
            how = "handed over from another function" if "param" in data_flags else "in slices"
            self.hit("send-system-file", node, f"sends the contents of a file outside the working directory, {how}, "
                     f"with {q.replace('#', '().')}")
        elif "env-secret" in data_flags:
            self.hit("env-secret-sent", node, "sends a secret environment variable in the body, URL or parameters of a request")

    def _judge_privileged(self, node: ast.Call, q: str, func: V, args: list[V], kwargs: dict[str, V]) -> None:
        a0 = args[0] if args else None
        if q in R.SET_IDS:
            who = " to root" if isinstance(a0, Num) and a0.value == 0 else ""
            self.hit("set-uid", node, f"changes the process identity{who} ({q})")
        elif q in R.PRIVILEGED_CALLS:
            self.hit("privileged-call", node, f"`{q}` needs root")
        elif q == "os.nice" and isinstance(a0, Num) and isinstance(a0.value, int) and a0.value < 0:
            self.hit("privileged-call", node, "raises its own scheduling priority (needs root)")
        elif q in ("socket.socket",) and any(isinstance(v, Ref) and v.qual.endswith(("SOCK_RAW", "AF_PACKET")) for v in args):
            self.hit("privileged-call", node, "opens a raw socket, which needs CAP_NET_RAW")

    # ---- rules over the whole program ------------------------------------------------------

    def _close_function_summaries(self) -> None:
        changed = True
        rounds = 0
        while changed and rounds < 20:
            changed, rounds = False, rounds + 1
            for caller, callees in self.func_calls.items():
                for callee in callees:
                    extra = self.func_kinds.get(callee, set()) - self.func_kinds.get(caller, set())
                    if extra:
                        self.func_kinds.setdefault(caller, set()).update(extra)
                        changed = True

    def _recursive(self, name: str) -> bool:
        seen, todo = set(), list(self.func_calls.get(name, ()))
        while todo:
            callee = todo.pop()
            if callee == name:
                return True
            if callee not in seen:
                seen.add(callee)
                todo.extend(self.func_calls.get(callee, ()))
        return False

    def _program_rules(self) -> None:
        for loop in self.loops:
            kinds = loop.kinds
            unbounded = loop.infinite or (isinstance(loop.node, ast.While) and not kinds & {"accept"})
            if "fork" in kinds and (loop.infinite or isinstance(loop.node, ast.While)) and "accept" not in kinds:
                self.hit("fork-bomb", loop.node, "forks inside an endless loop: the processes multiply until the machine stops")
            elif "fork" in kinds and isinstance(loop.node, ast.While):
                self.hit("process-fork", loop.node, "forks once per accepted connection", "MEDIUM")
            if "spawn" in kinds and unbounded and loop.infinite and "wait" not in kinds:
                self.hit("fork-bomb", loop.node, "starts processes in an endless loop without waiting for them")
            if "recv" in kinds and "exec" in kinds:
                self.hit("remote-command-exec", loop.node, "a loop receives data over the network and runs commands: a remote control channel",
                         "MEDIUM")
            if loop.sweep and "delete" in kinds:
                self.hit("destructive-wipe", loop.node, f"walks {loop.sweep} and deletes or overwrites what it finds")
            elif loop.sweep and kinds & {"rewrite", "move"}:
                self.hit("destructive-wipe", loop.node, f"walks {loop.sweep} and rewrites or renames what it finds")
            elif (loop.outside or loop.sweep) and "encrypt" in kinds and "outwrite" in kinds:
                self.hit("destructive-sweep", loop.node, f"walks {loop.outside or loop.sweep} and encrypts the files it finds "
                         "(ransomware)")
            elif loop.outside and "rewrite" in kinds:
                self.hit("destructive-sweep", loop.node, f"walks {loop.outside} and rewrites each file it finds in place "
                         "(encrypting or corrupting them)")
            elif (loop.outside or loop.sweep) and any("rewrite" in self.func_kinds.get(name, ()) for name in self.handed):
                self.hit("destructive-sweep", loop.node, f"walks {loop.outside or loop.sweep} and hands what it finds to a "
                         "function that rewrites files in place")
        for name, kinds in self.func_kinds.items():
            if "fork" in kinds and self._recursive(name):
                node = self.local_funcs.get(name)
                self.hit("fork-bomb", node, f"`{name}` forks and calls itself, multiplying processes without end")
        if self.secret_reads and self.net_sends:
            node, label = self.secret_reads[0]
            self.hit("exfiltration", node, f"reads {label} and the program also sends data over the network", "MEDIUM")
        if self.socket_connects and self.shell_spawns:
            self.hit("reverse-shell", self.shell_spawns[0], "starts an interactive shell in a program that connects a socket", "MEDIUM")
        if self.security_names and self.kill_calls:
            self.hit("disable-security", self.kill_calls[0], "kills processes and names security tooling: it is switching protection off",
                     "MEDIUM")
        if self.clipboard and self.wallet_texts:
            self.hit("clipboard-hijack", self.clipboard[0], "reads or replaces the clipboard and holds cryptocurrency wallet addresses")
        if self.native:
            self.hit("native-code", self.native[0], "loads or calls native code through ctypes/cffi")
            if self.exec_memory_names:
                self.hit("shellcode-loader", self.exec_memory_names[0], "maps executable memory and calls into it: a shellcode loader")
        hit_lines = {(h.rule, h.line) for h in self.hits}
        for node, found in self.deferred_text:
            if (found.rule, getattr(node, "lineno", 0)) in hit_lines:
                continue
            if self.command_sinks or found.rule in ("reverse-shell", "crypto-miner", "fork-bomb"):
                self.hit(found.rule, node, f"{found.detail} (in text the program can run)", "MEDIUM")
            else:
                self.hit("dangerous-command-text", node, f"holds a dangerous command: {found.detail}", "MEDIUM")


def _invocations(func: V, args: list[V], kwargs: dict[str, V], iterate: Any) -> list[tuple[V, list[V], dict[str, V]]]:
    """The calls one call node makes: itself, each function it may be (a name bound to several),
    a partial's function with its bound arguments, and functions handed over to be called (map,
    threads, processes, executors)."""
    out: list[tuple[V, list[V], dict[str, V]]] = [(func, args, kwargs)]
    if isinstance(func, Alt):
        out += [(option, args, kwargs) for option in func.options[:8] if isinstance(option, (Ref, Partial))]
    for index, (target, target_args, target_kwargs) in enumerate(list(out)):
        if isinstance(target, Partial):
            out[index] = (target.func, [*target.args, *target_args], target_kwargs)
    q = func.qual if isinstance(func, Ref) else ""
    method = q.split("#", 1)[1].split(".")[-1] if "#" in q else q.rsplit(".", 1)[-1]
    handed: list[tuple[V, list[V]]] = []
    if q in ("builtins.map", "builtins.filter") or ("#" in q and method in ("map", "imap", "imap_unordered", "starmap")):
        if len(args) >= 2:
            items = iterate(args[1]) or [UNKNOWN]
            handed += [(args[0], [item]) for item in items[:8]]
    elif q in ("threading.Thread", "multiprocessing.Process") or q.endswith("Process"):
        target_args = kwargs.get("args")
        handed.append((kwargs.get("target", UNKNOWN), list(target_args.items) if isinstance(target_args, Seq) else []))
    elif q == "threading.Timer" and len(args) >= 2:
        handed.append((args[1], list(args[2].items) if len(args) > 2 and isinstance(args[2], Seq) else []))
    elif "#" in q and method in ("submit", "apply_async", "apply", "call_soon", "call_soon_threadsafe") and args:
        handed.append((args[0], list(args[1:])))
    elif q == "asyncio.to_thread" and args:
        handed.append((args[0], list(args[1:])))
    elif "#" in q and method == "run_in_executor" and len(args) >= 2:
        handed.append((args[1], list(args[2:])))
    for target, target_args in handed:
        options = target.options[:8] if isinstance(target, Alt) else (target,)
        for option in options:
            if isinstance(option, Partial):
                out.append((option.func, [*option.args, *target_args], {}))
            elif isinstance(option, Ref):
                out.append((option, target_args, {}))
    return out


def _climbs(value: V) -> bool:
    texts = _strings(value)
    return bool(texts) and all(text.rstrip("/").endswith("/..") or text == ".." for text in texts)


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _assigned_in(body: list[ast.stmt]) -> set[str]:
    """Names (and attribute names) a block assigns to, however deep."""
    out: set[str] = set()
    for statement in body:
        for node in ast.walk(statement):
            targets: list[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
                targets = [node.target]
            for target in targets:
                out |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
                out |= {n.attr for n in ast.walk(target) if isinstance(n, ast.Attribute)}
    return out


def _mode_text(mode: V | None) -> str:
    """The letters of a file mode, of every value it may have (`"a" if exists else "w"`)."""
    if isinstance(mode, Str):
        return mode.value
    if isinstance(mode, Alt):
        return "".join(option.value for option in mode.options if isinstance(option, Str))
    return ""


def _folded_strings(value: V, limit: int = 64, depth: int = 0) -> list[str]:
    """The strings in a value that were assembled or decoded, which the source does not show as such."""
    if isinstance(value, (Str, Bytes)):
        return _strings(value) if value.flags & {"built", "encoded"} else []
    if depth > 2:
        return []
    if isinstance(value, Seq):
        inherited = value.flags & {"built", "encoded"}
        return [text for item in value.items[:limit] for text in _folded_strings(_with(item, inherited), limit, depth + 1)]
    if isinstance(value, Alt):
        return [text for option in value.options[:limit] for text in _folded_strings(option, limit, depth + 1)]
    return []


def _join(parts: list[str]) -> str:
    """os.path.join of the parts (an empty first part adds nothing, an absolute part restarts)."""
    path = ""
    for part in parts:
        path = part if part.startswith("/") or not path else f"{path.rstrip('/')}/{part}"
    return path


def _wildcards_unknown(pattern: str) -> str:
    """A glob pattern as a path with unknown parts: what it may match, for the sensitive-path model."""
    return re.sub(r"\*\*|\*|\?|\[[^\]]*\]", PH, pattern)


def _listed_folder(text: str) -> str:
    """The folder a listing reads: a glob pattern's part before its first wildcard."""
    parts = text.split("/")
    for index, part in enumerate(parts):
        if any(mark in part for mark in "*?[") :
            return "/".join(parts[:index]) or ("/" if text.startswith("/") else ".")
    return text


def _clip(text: str, limit: int = 80) -> str:
    flat = " ".join(text.replace(PH, "…").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _decompress(kind: str, data: bytes) -> bytes:
    limit = MAX_VALUE_CHARS
    if kind == "zlib":
        out = zlib.decompressobj().decompress(data, limit)
    elif kind == "gzip":
        out = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, limit)
    elif kind == "bz2":
        out = bz2.BZ2Decompressor().decompress(data, limit)
    else:
        out = lzma.LZMADecompressor().decompress(data, limit)
    return out


def _codec(value: V, encoding: str, flags: frozenset[str]) -> V:
    name = encoding.lower().replace("-", "_")
    if name in ("rot13", "rot_13") and isinstance(value, Str):
        return Str(flags, codecs.decode(value.value, "rot13"))
    data = value.value.encode("latin-1") if isinstance(value, Str) else value.value if isinstance(value, Bytes) else None
    if data is None:
        return Unknown(flags)
    if name in ("hex", "hex_codec"):
        return Bytes(flags, binascii.unhexlify(data))
    if name in ("base64", "base_64", "base64_codec"):
        return Bytes(flags, base64.b64decode(data + b"=" * (-len(data) % 4)))
    if name in ("zlib", "zlib_codec", "zip"):
        return Bytes(flags, _decompress("zlib", data))
    if name in ("bz2", "bz2_codec"):
        return Bytes(flags, _decompress("bz2", data))
    if name in ("uu", "uu_codec", "quopri", "quopri_codec"):
        return Bytes(flags, codecs.decode(data, name))
    if isinstance(value, Bytes):
        return Str(flags - {"encoded"} | (value.flags & {"encoded"}), data.decode(encoding, "replace"))
    return Unknown(flags)


_PARSERS = frozenset({"json.load", "json.loads", "yaml.safe_load", "yaml.load", "tomllib.load", "tomllib.loads", "toml.load", "toml.loads",
                      "configparser.ConfigParser#get", "configparser.ConfigParser#getint", "dotenv.dotenv_values"})
_MAPPED_OVER_ALTERNATIVES = frozenset({
    "os.path.join", "posixpath.join", "os.path.expanduser", "os.path.expandvars", "os.path.abspath", "os.path.realpath",
    "os.path.normpath", "os.path.dirname", "os.fspath", "pathlib.Path", "pathlib.PurePath", "glob.glob", "glob.iglob",
    "builtins.getattr",
})
_OS_CONSTANTS = {"sep": "/", "altsep": "/", "curdir": ".", "pardir": "..", "extsep": "."}
_HARMLESS_ALONE = frozenset({"sys", "base64", "codecs", "zlib", "urllib", "requests", "http", "importlib"})


def _is_dangerous(q: str) -> bool:
    """Whether reaching ``q`` by an assembled name can only serve to hide something."""
    if q in R.CODE_EXEC or q in R.COMMANDS or q in R.FORKS or q in R.DECODERS:
        return True
    if q in ("builtins.__import__", "builtins.getattr", "importlib.import_module", "builtins.open"):
        return True
    top = q.split(".")[0]
    return top in R.DANGEROUS_MODULES and top not in _HARMLESS_ALONE


def _command_words(value: V) -> list[str]:
    texts = _command_texts(value)
    out = []
    for text, argv in texts:
        out.extend(argv or text.split())
    return out


def _command_texts(value: V) -> list[tuple[str, list[str]]]:
    """(text, argv) pairs: a shell string has an empty argv; an argument list has both."""
    if isinstance(value, Str):
        return [(value.value, [])]
    if isinstance(value, Bytes):
        return [(value.value.decode("utf-8", "replace"), [])]
    if isinstance(value, Seq):
        argvs: list[list[str]] = [[]]
        for item in value.items:  # ["find", d, "-delete"] for each folder d a loop gives
            if isinstance(item, Alt) and 0 < len(item.options) <= 16 and len(argvs) * len(item.options) <= 16:
                words = [option.value if isinstance(option, Str) else PH for option in item.options]
                argvs = [argv + [word] for argv in argvs for word in dict.fromkeys(words)]
            else:
                argvs = [argv + [item.value if isinstance(item, Str) else PH] for argv in argvs]
        return [(" ".join(argv), argv) for argv in argvs]
    if isinstance(value, Alt):
        out = []
        for option in value.options:
            out.extend(_command_texts(option))
        return out
    return []


def _argv_or_text_hits(argv: list[str], paths: SensitivePaths | None = None) -> list[CommandHit]:
    hits = argv_hits(argv, 0, paths)
    joined = " ".join(argv)
    if R.REVERSE_SHELL_TEXT.search(joined) and not any(h.rule == "reverse-shell" for h in hits):
        hits.append(CommandHit("reverse-shell", "opens a shell over a network connection", True))
    return hits


def _pip_packages(words: list[str]) -> list[str]:
    lowered = [w.lower() for w in words]
    if "install" not in lowered or not any(re.fullmatch(r"pip[0-9.]*", program_name(w)) or w == "pip" for w in lowered):
        return []
    after = lowered.index("install") + 1
    names = []
    for word in words[after:]:
        if word.startswith("-") or PH in word or "/" in word:
            continue
        name = re.split(r"[<>=!~\[;@ ]", word, maxsplit=1)[0]
        if name:
            names.append(name)
    return names


# --- reading code that does not parse ----------------------------------------------------------


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


def _salvage(code: str) -> tuple[ast.Module, list[tuple[int, str]]]:
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


def _token_hits(code: str, threats: ThreatList, first_line: int = 1, paths: SensitivePaths | None = None) -> list[Hit]:
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
        if R.MINER_TEXT.search(text):
            hits.append(Hit("crypto-miner", number, column, f"mentions a mining pool or wallet: {_clip(text)}", "MEDIUM"))
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


# --- the adapter -------------------------------------------------------------------------------


class AstAnalyzer:
    """Findings and a complexity measure for one submission; levels come from the policy."""

    name = "ast"

    def __init__(self, policy: AstPolicy, threats: ThreatList, paths: SensitivePaths | None = None) -> None:
        listed = sorted(R.MODEL_LEVELLED & set(policy.rules))
        if listed:
            raise ConfigurationError(
                f"policy file {policy.source}: key ast.rules.{listed[0]}: this rule's levels come from the sensitive-path "
                "model (sensitive_paths.yaml, per path and operation): remove it here and set the levels there"
            )
        missing = sorted(set(R.RULES) - set(policy.rules) - R.MODEL_LEVELLED)
        if missing:
            raise ConfigurationError(
                f"policy file {policy.source}: key ast.rules: no level for {', '.join(missing)}: "
                "add each with a level (LOW, MEDIUM, HIGH or BLOCKED)"
            )
        unknown = sorted(set(policy.rules) - set(R.RULES))
        if unknown:
            raise ConfigurationError(
                f"policy file {policy.source}: key ast.rules.{unknown[0]}: no such AST rule; "
                f"known rules are {', '.join(sorted(R.RULES))}"
            )
        self._policy = policy
        self._threats = threats
        self._paths = paths

    def analyze(self, submission: Submission) -> list[Finding]:
        return self.analyze_and_measure(submission)[0]

    def analyze_and_measure(self, submission: Submission) -> tuple[list[Finding], dict[str, int]]:
        code = submission.code
        hits: list[Hit] = self._threat_hits(code)
        analysis = _Analysis(self._threats, paths=self._paths)
        tree: ast.Module | None = None
        broken: list[tuple[int, str]] = []
        try:
            tree = parse_python(code)
        except SyntaxError as exc:
            where = f"line {exc.lineno}" if exc.lineno else "somewhere"
            hits.append(Hit("parse-failed", exc.lineno or 0, max((exc.offset or 1) - 1, 0),
                            f"the code does not parse ({exc.msg} at {where}); only the readable parts were checked"))
        except (RecursionError, MemoryError) as exc:
            hits.append(Hit("too-complex", 0, 0, f"the code is nested too deeply for Python's parser ({type(exc).__name__}); "
                                                 "only the readable parts were checked"))
        except ValueError as exc:
            hits.append(Hit("parse-failed", 0, 0, f"the code cannot be parsed ({exc})"))
        if tree is None:
            tree, broken = _salvage(code)
        try:
            analysis.run(tree)
        except RecursionError:
            hits.append(Hit("too-complex", 0, 0, "the code is nested too deeply to analyse completely"))
        hits.extend(analysis.hits)
        for first_line, chunk in broken:
            hits.extend(_token_hits(chunk, self._threats, first_line, self._paths))
        complexity = {
            "lines": code.count("\n") + (0 if code.endswith("\n") else 1),
            **analysis.counts,
            "max_nesting_depth": analysis.max_block_depth,
            "max_expression_depth": analysis.max_expr_depth,
        }
        if broken:
            complexity["unparsed_lines"] = sum(chunk.count("\n") + 1 for _, chunk in broken)
        policy = self._policy
        if analysis.max_block_depth > policy.max_nesting_depth or analysis.max_expr_depth > policy.max_expression_depth:
            hits.append(Hit("too-complex", 0, 0, f"blocks nest {analysis.max_block_depth} deep and expressions "
                                                 f"{analysis.max_expr_depth} deep, beyond what is reviewed reliably"))
        longest = max(map(len, code.splitlines()), default=0)
        if complexity["lines"] > policy.max_lines or longest > policy.max_line_length:
            hits.append(Hit("too-complex", 0, 0, f"{complexity['lines']} lines, the longest {longest} characters: more than a "
                                                 f"person reviews (limits {policy.max_lines} lines, {policy.max_line_length} characters)"))
        return self._findings(hits, code, submission.provenance), complexity

    def _threat_hits(self, code: str) -> list[Hit]:
        hits = []
        threats = self._threats
        if threats.file_hashes:
            found = threats.file_hashes.get(file_digest(code))
            if found:
                hits.append(Hit("known-threat-hash", 1, 0, f"the whole program matches the known threat `{found.name}`"
                                + (f" ({found.reference})" if found.reference else "")))
        if threats.line_hashes:
            for number, digest in line_digests(code):
                found = threats.line_hashes.get(digest)
                if found:
                    hits.append(Hit("known-threat-hash", number, 0, f"this line matches the known threat `{found.name}`"
                                    + (f" ({found.reference})" if found.reference else "")))
        return hits

    def _level(self, found: Hit, provenance: Provenance) -> RiskLevel:
        if found.level is not None:
            return found.level
        return self._policy.rules[found.rule].for_provenance(provenance)

    def _findings(self, hits: list[Hit], code: str, provenance: Provenance) -> list[Finding]:
        lines = code.splitlines()
        seen: set[tuple[str, int]] = set()
        # A model-rated path operation adds nothing where another finding on its line is as high.
        best: dict[int, RiskLevel] = {}
        for found in hits:
            if found.rule not in R.MODEL_LEVELLED:
                level = self._level(found, provenance)
                best[found.line] = max(best.get(found.line, RiskLevel.LOW), level)
        findings = []
        for found in sorted(hits, key=lambda h: -self._level(h, provenance).rank):
            key = (found.rule, found.line)
            if key in seen:
                continue
            seen.add(key)
            level = self._level(found, provenance)
            if found.rule in R.MODEL_LEVELLED and best.get(found.line, RiskLevel.LOW) >= level:
                continue
            info = R.RULES[found.rule]
            snippet = lines[found.line - 1].strip()[:200] if 0 < found.line <= len(lines) else ""
            findings.append(
                Finding(
                    analyzer=self.name,
                    rule_id=found.rule,
                    level=level,
                    message=f"{found.detail[:400]}; {info.advice}",
                    line=found.line,
                    column=found.column,
                    snippet=snippet,
                    severity=info.severity,
                    confidence=found.confidence,
                    cwe=info.cwe,
                )
            )
        return findings
