"""The state of one analysis run: the hits it reports, the loops and contexts the walk keeps, and
every fact the first pass learns for the second (AnalysisState), handed to each of the analysis'
objects (docs/decisions/0039-ast-analysis-as-objects.md).
"""

from __future__ import annotations

import ast
import time
from dataclasses import dataclass, field

from mai_safety.domain.levels import RiskLevel

from ..policy import ThreatList
from ..bounds import AnalysisOverran
from ..sensitive_paths import SensitivePaths
from .commands import PLACEHOLDER, CommandHit
from .values import Value, join_path


@dataclass
class Hit:
    rule: str
    line: int
    column: int
    detail: str
    confidence: str = "HIGH"
    level: RiskLevel | None = None  # the sensitive-path model's level; None: the policy's level for the rule


@dataclass
class Loop:
    node: ast.AST
    infinite: bool
    bound: int | None  # known iteration count, None if unknown
    sweep: str | None = None  # the top-level folder a walk/glob loop runs over
    kinds: set[str] = field(default_factory=set)
    outside: str | None = None  # a folder outside the working directory (not scratch) a walk/glob loop runs over


@dataclass(frozen=True)
class WalkContext:
    loops: tuple[Loop, ...] = ()
    func: str | None = None
    block_depth: int = 0


def clip(text: str, limit: int = 80) -> str:
    flat = " ".join(text.replace(PLACEHOLDER, "…").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class AnalysisState:
    """What one run over one tree knows: the environment of names, the facts the walk gathers for the
    judges, the hits found so far, and the evaluator's budget. The evaluator, the walker and the judges
    are objects, each handed this state (and the collaborators it calls) by ProgramAnalysis (program.py);
    what they share goes through here, so it is written down in one place, grouped by who writes it."""

    def __init__(self, threats: ThreatList, depth: int = 0, paths: SensitivePaths | None = None) -> None:
        # The run: what it is given, which pass it is in, what it found, the evaluator's budget.
        self.threats = threats
        self.paths = paths
        self.depth = depth  # how deep in executed code (exec of exec...) this run is
        self.tree: ast.AST | None = None  # the tree run over (doctests and annotations are read from it when run)
        self.pass_no = 1
        self.hits: list[Hit] = []
        self.steps = 0
        self.deadline: float | None = None  # time.monotonic() by which the run stops (check_deadline)
        self.memo: dict[int, Value] | None = None
        self.opaque_seen = False  # an opaque value was made: worth learning once more with every caller known
        self.counts = {"loops": 0, "imports": 0, "calls": 0, "functions": 0, "classes": 0}
        self.max_block_depth = 0
        self.max_expr_depth = 0
        # Names: what the walker binds and the evaluator reads.
        self.env: dict[str, Value] = {}
        self.inherited_env: dict[str, Value] = {}  # names code run by exec/eval sees from the program that runs it
        self.star_modules: list[str] = []
        self.attrs: dict[str, Value] = {}  # `self.x = ...`, by attribute name
        self.class_attrs: set[str] = set()  # names assigned in a class body
        self.classes: set[str] = set()
        self.class_bases: dict[str, list[Value]] = {}  # each class the program defines: its bases
        self.class_members: dict[str, set[str]] = {}  # ... and the names its body assigns
        self.method_class: dict[int, str] = {}  # id of each method's FunctionDef -> its class
        self.net_methods: set[int] = set()  # methods whose first parameter is a network handler (socketserver)
        self.http_methods: set[int] = set()  # methods of http.server handlers: self holds the request, not a raw socket
        self.local_funcs: dict[str, ast.AST] = {}
        self.returns: dict[str, dict[int, Value]] = {}  # what each local function returns, by return statement
        self.call_sites: dict[str, list[tuple[list[Value], dict[str, Value]]]] = {}
        self.sites_read = self.call_sites  # the call sites parameters are bound from (a second round reads the first's)
        # What calls establish for the calls after them (the judges write, the evaluator reads some).
        self.arg_defaults: dict[str, Value] = {}  # argparse destinations and their defaults
        self.cwd: str | None = None  # where os.chdir went, if it went somewhere known
        self.own_pid_files: set[str] = set()  # files the program writes its own pid into
        self.mocked: set[str] = set()  # functions the program replaces with mocks (mock.patch, monkeypatch.setattr)
        self.downloaded: set[str] = set()  # files the program filled with what it downloaded (opacity.py)
        self.rebound: dict[str, Value] = {}  # attributes of modules the program rebinds (`sys.breakpointhook = f`)
        self.written: dict[str, str] = {}  # files the program writes known text into, by last component (opacity.py)
        self.read_names: set[tuple[str | None, str]] = set()  # (function, how the code names a file it reads)
        self.writes_compose = False  # the program writes a compose file or Dockerfile itself
        self.makes_children = False
        # Facts gathered for the rules that need two things to happen in one program (ProgramAnalysis).
        self.func_kinds: dict[str, set[str]] = {}
        self.func_calls: dict[str, set[str]] = {}
        self.handed: set[str] = set()  # local functions handed to map/submit (run over a list)
        self.loops: list[Loop] = []
        self.secret_reads: list[tuple[ast.AST, str]] = []
        self.net_sends: list[ast.AST] = []
        self.sensitive_reads: list[tuple[ast.AST, str]] = []  # reads and listings the path model rates MEDIUM or above
        self.net_uses: list[ast.AST] = []  # every use of the network
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

    def check_deadline(self) -> None:
        """Stop the run (AnalysisOverran) once its deadline has passed; the walker and the evaluator
        call this every few hundred steps, so a run overruns its deadline by milliseconds at most."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise AnalysisOverran(f"the analysis passed its deadline after {self.steps} evaluation steps")

    def learned(self) -> tuple[object, ...]:
        """What the program has established beyond its names, as a mark that changes when a statement
        adds to it: every fact above that the calls after it or the rules over the whole program read
        (a socket connected, a shell started, a secret read, a file written with known text, a folder
        changed to, a function's kinds, ...), and the hits. A session keeps the statements that change
        it in every later cell's context (infrastructure/analysis/session_context.py)."""
        keyed = (self.arg_defaults, self.rebound, self.written)
        grown = (
            self.own_pid_files, self.mocked, self.downloaded, self.read_names, self.handed, self.star_modules, self.hits,
            self.secret_reads, self.net_sends, self.sensitive_reads, self.net_uses, self.socket_connects, self.shell_spawns,
            self.command_sinks, self.deferred_text, self.security_names, self.kill_calls, self.native, self.exec_memory_names,
            self.clipboard, self.wallet_texts,
        )
        return (
            self.cwd, self.writes_compose, self.makes_children, tuple(map(len, grown)),
            tuple(tuple((key, id(value)) for key, value in facts.items()) for facts in keyed),
            tuple((name, len(kinds)) for name, kinds in self.func_kinds.items() if kinds),
        )

    def hit(self, rule: str, node: ast.AST | None, detail: str, confidence: str = "HIGH", level: RiskLevel | None = None) -> None:
        """A finding at ``node``; only the second pass reports (the first learns names)."""
        if self.pass_no != 2:
            return
        line = getattr(node, "lineno", 0) or 0
        column = getattr(node, "col_offset", 0) or 0
        self.hits.append(Hit(rule, line, column, detail, confidence, level))

    def in_cwd(self, text: str) -> str:
        """A relative path as seen after the program's os.chdir, if it changed to a known folder."""
        if self.cwd is None or text.startswith(("/", "~")) or PLACEHOLDER in text[:1]:
            return text
        return join_path([self.cwd, text])

    def local_callee(self, qualname: str) -> str | None:
        """The program's own function (or class) a call reaches: ``f(...)``, or ``obj.f(...)`` /
        ``self.f(...)`` when the program defines a function named ``f``."""
        if qualname.startswith("<local>.") and "#" not in qualname:
            return qualname.split(".", 1)[1]
        if "#" in qualname:
            name = qualname.rsplit("#", 1)[1].rsplit(".", 1)[-1]
            if name in self.local_funcs and not name.startswith("__"):
                return name
        return None
