"""The judges of execution: commands, executed code, dynamic imports, forks and process control.
"""

from __future__ import annotations

import ast
import re
import sys

from ..policy import normalise_package
from ..sensitive_paths import SensitivePaths
from . import rules
from .command_lines import argv_hits, command_hits
from .commands import (
    PLACEHOLDER,
    CommandHit,
    command_path_ops,
    command_segments,
    program_name,
)
from .parsing import parse_python, token_hits
from .resource_judges import ResourceJudges
from .roles import AnalyseNested
from .state import AnalysisState, Hit, WalkContext, clip
from .values import (
    ENCODING_FLAGS,
    NO_FLAGS,
    UNKNOWN,
    Alternatives,
    Bytes,
    Code,
    Num,
    Ref,
    Seq,
    Str,
    Unknown,
    Value,
    command_texts,
    flags_of,
    foreign_process,
    listed_folder,
    own_process,
    strings_of,
)

MAX_PAYLOAD_DEPTH = 3  # exec("exec('...')") is followed this many levels deep


def _argv_or_text_hits(argv: list[str], paths: SensitivePaths | None = None) -> list[CommandHit]:
    hits = argv_hits(argv, 0, paths)
    joined = " ".join(argv)
    if rules.REVERSE_SHELL_TEXT.search(joined) and not any(h.rule == "reverse-shell" for h in hits):
        hits.append(CommandHit("reverse-shell", "opens a shell over a network connection", True))
    return hits


def _unidentified(program: Value) -> bool:
    """A program to run that the analysis cannot name, and that is not the user's choice (an argument,
    an environment variable such as $EDITOR)."""
    options = program.options if isinstance(program, Alternatives) else (program,)
    for option in options[:16]:
        if option.flags & {"user", "self", "param"} and isinstance(option, Unknown):
            continue  # the user's choice, the program itself, or what a caller the analysis did not see passes
        if isinstance(option, Unknown) and not option.flags & {"env-secret"}:
            return True
        if isinstance(option, Str) and PLACEHOLDER in program_name(option.value.split(" ")[0]):
            return True
    return False


def _readable_sources(payload: Value) -> list[str]:
    """Every text a payload may be, when each is known whole; else none."""
    options: list[Value] = [payload]
    while any(isinstance(option, Alternatives) for option in options) and len(options) <= 64:
        options = [inner for option in options for inner in (option.options if isinstance(option, Alternatives) else (option,))]
    sources: list[str] = []
    for option in options:
        if isinstance(option, Code):
            if option.source is None:
                return []
            sources.append(option.source)
        elif isinstance(option, (Str, Bytes)):
            sources.extend(strings_of(option))
        else:
            return []
    return [] if any(PLACEHOLDER in text for text in sources) else sources


def _pip_packages(words: list[str]) -> list[str]:
    lowered = [w.lower() for w in words]
    if "install" not in lowered or not any(re.fullmatch(r"pip[0-9.]*", program_name(w)) or w == "pip" for w in lowered):
        return []
    after = lowered.index("install") + 1
    names = []
    for word in words[after:]:
        if word.startswith("-") or PLACEHOLDER in word or "/" in word:
            continue
        name = re.split(r"[<>=!~\[;@ ]", word, maxsplit=1)[0]
        if name:
            names.append(name)
    return names


#: Syntax-tree nodes (and the parser) through which compiled code may call, import or look up a capability.
_REACHING_NODES = frozenset({"Call", "Attribute", "Import", "ImportFrom", "Lambda", "FunctionDef", "ClassDef", "parse", "literal_eval",
                             "NamedExpr", "With", "Try", "Starred"})


def _built_tree(payload: Value) -> bool:
    """Code that is (each option of it) a syntax tree the program built node by node."""
    options = payload.options if isinstance(payload, Alternatives) else (payload,)
    return bool(options) and all(isinstance(option, Code) and "tree" in option.flags for option in options)


class ExecutionJudges:
    """Pass-two judgements of what a call runs or controls: shell commands and argument lists, code
    handed to exec/eval/compile (analysed in turn by the ``analyse_nested`` it is handed), imports
    (known-malicious packages; names assembled at run time), forks, and signals to processes."""

    def __init__(self, state: AnalysisState, resources: ResourceJudges, analyse_nested: AnalyseNested) -> None:
        self.state = state
        self.resources = resources
        self.analyse_nested = analyse_nested  # a fresh analysis of executed code, one level deeper

    def judge_process_control(self, node: ast.Call, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value]) -> None:
        """Signalling a process the program did not start: its own children (Popen/Process objects,
        their pids, fork's result, psutil's children of itself) and itself are exempt."""
        method = qualname.split("#", 1)[1].rsplit(".", 1)[-1] if "#" in qualname else ""
        lesser = ""
        if qualname in rules.KILLS:
            if not args:
                return
            target: Value = args[0]
            signal = args[1] if len(args) > 1 else kwargs.get("signalnum") or kwargs.get("sig") or kwargs.get("signal")
            if qualname == "signal.pthread_kill":
                return  # a thread of this program
            foreign = foreign_process(target)
            if not foreign and own_process(target):
                return
            if not foreign and ("cwdpid" in target.flags or qualname in self.state.mocked):
                lesser = "replaced by a mock in this program (a test)" if qualname in self.state.mocked else \
                    "whose pid it read from a pid file in its working directory (its own service or worker)"
            if not foreign and isinstance(target, Ref) and "#" in target.qual and target.qual.endswith(("#pid", ".pid")) and self.state.makes_children:
                return  # `<something>.pid` in a program that starts children: most likely one of them
            what = "a process it found (psutil)" if foreign else "a process it did not start"
        elif method in rules.KILL_METHODS:
            recv = func.recv if isinstance(func, Ref) else None
            if not foreign_process(recv) or own_process(recv or UNKNOWN):
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
            self.state.hit("process-signal", node, f"signals a process ({qualname.rsplit('.', 1)[-1]}) {lesser}", "MEDIUM")
            return
        if isinstance(signal, Num) and isinstance(signal.value, int):
            name = "gentle" if signal.value in rules.GENTLE_SIGNAL_NUMBERS else ""
        elif isinstance(signal, Ref):
            name = "gentle" if signal.qual.rsplit(".", 1)[-1] in rules.GENTLE_SIGNALS else ""
        verb = method or qualname.rsplit(".", 1)[-1]
        if name == "gentle":
            self.state.hit("process-signal", node, f"sends a signal ({verb}) to {what}", "MEDIUM")
        else:
            self.state.hit("process-control", node, f"stops or kills {what} ({verb}); only the program's own children are its to stop")

    def judge_import_call(self, node: ast.AST, qualname: str, name: Value) -> None:
        if isinstance(name, Str):
            module = name.value
            if name.flags & {"built", "encoded", "opaque"}:
                if module.split(".")[0] in rules.DANGEROUS_MODULES:
                    self.state.hit("obfuscated-call", node, f"imports `{module}` through a name assembled at run time")
                else:
                    self.state.hit("dynamic-import", node, f"imports `{module}` through a name assembled at run time", "MEDIUM")
            elif module.split(".")[0] in rules.DANGEROUS_MODULES:
                self.state.hit("indirect-call", node, f"imports `{module}` through {qualname.split('.')[-1]}()", "MEDIUM")
            self.check_package(node, module)
        elif name.flags & ENCODING_FLAGS:
            self.state.hit("obfuscated-call", node, "imports a module whose name is decoded at run time")
        else:
            self.state.hit("dynamic-import", node, "imports a module whose name is only known at run time", "MEDIUM")

    def _trees_can_call(self) -> bool:
        """The program builds (or parses) a syntax-tree node that calls, imports or looks something up:
        a tree it compiles may then reach any capability. Without one, its trees only compute."""
        if self.state.tree is None:
            return True
        for found in ast.walk(self.state.tree):
            if isinstance(found, ast.Call):
                callee = found.func.attr if isinstance(found.func, ast.Attribute) else found.func.id if isinstance(found.func, ast.Name) else ""
                if callee in _REACHING_NODES:
                    return True
        return False

    def _written_text(self, path: Value) -> Value | None:
        """The text the program wrote into the file at ``path`` (all of it known), if it wrote one."""
        for text in strings_of(path)[:4]:
            written = self.state.written.get(text.strip().rstrip("/").rsplit("/", 1)[-1])
            if written is not None:
                return Str(NO_FLAGS, written)
        return None

    def judge_code_exec(self, node: ast.AST, qualname: str, payload: Value | None, ctx: WalkContext) -> None:
        name = qualname.removeprefix("builtins.")
        if payload is None:
            return
        if "net" in payload.flags:
            self.state.hit("remote-command-exec", node, f"{name}() runs code received over the network")
            return
        if isinstance(payload, Code) and "marshal" in payload.flags:
            if "encoded" in payload.flags:
                self.state.hit("obfuscated-exec", node, f"{name}() runs marshalled bytecode, which cannot be reviewed")
            else:
                self.state.hit("opacity", node, f"{name}() runs bytecode made at run time, which the analysis cannot read; a person must read it")
            return
        if qualname in ("runpy.run_path", "builtins.execfile"):  # the payload names a file: what runs is the file's text
            written = self._written_text(payload)
            if written is not None:
                self.judge_code_exec(node, "builtins.exec", written, ctx)  # a file the program wrote: the text it wrote
                return
            if _readable_sources(payload):
                self.state.hit("opacity", node, f"{name}() runs the code of {clip(strings_of(payload)[0])}, a file the analysis did not "
                               "read; a person must read it")
                return
        sources = _readable_sources(payload)  # empty: some text it may run is not known whole (unseen)
        encoded = bool(payload.flags & ENCODING_FLAGS)
        if not sources:
            if encoded:
                self.state.hit("obfuscated-exec", node, f"{name}() runs a payload that is decoded at run time")
            elif "user" in payload.flags and not payload.flags & {"built", "net"}:
                self.state.hit("code-exec", node, f"{name}() runs text whoever runs the program gives it", "MEDIUM")
            elif _built_tree(payload) and not self._trees_can_call():
                self.state.hit("code-exec", node, f"{name}() runs a syntax tree the program builds from nodes that cannot call, "
                               "import or look up anything", "MEDIUM")
            elif qualname in ("runpy.run_path", "runpy.run_module", "builtins.execfile"):
                self.state.hit("opacity", node, f"{name}() runs another file's code, which the analysis did not read; a person must read it")
            else:
                self.state.hit("opacity", node, f"{name}() runs text the analysis cannot read (computed or read at run time); a person must "
                               "read it")
            return
        inner: list[Hit] = []
        for source in sources[:8]:
            inner.extend(self._payload_hits(source))
        for found in inner:
            self.state.hits.append(Hit(found.rule, getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
                                       f"in the code passed to {name}(): {found.detail}", found.confidence, found.level))
        risky = [h for h in inner if h.rule not in ("indirect-call", "network", "outside-write", "weak-crypto", "process-fork",
                                                    "recursive-delete", "parse-failed")]
        if risky and qualname not in rules.CODE_EXEC:  # code run through an entry point that does not say so (opacity.py)
            self.state.hit("opacity", node, f"runs code through `{name}`, an entry point that hides it, and that code {risky[0].detail}; "
                           "a person must read it")
        if encoded:
            shown = f": {clip(sources[0])}" if sources[0].strip() else ""
            self.state.hit("obfuscated-exec", node, f"{name}() runs code that is decoded at run time{shown}")
        elif payload.flags & {"built"} and risky:
            self.state.hit("obfuscated-exec", node, f"{name}() runs code assembled from pieces: {clip(sources[0])}")
        elif payload.flags & {"built"} or isinstance(payload, Code) and qualname != "builtins.compile":
            self.state.hit("code-exec", node, f"{name}() runs code assembled at run time", "MEDIUM")

    def _payload_hits(self, source: str) -> list[Hit]:
        if self.state.depth >= MAX_PAYLOAD_DEPTH or len(source) > 256_000:
            return [Hit("obfuscated-exec", 0, 0, "nests executed code deeper than the analyzer follows")] if self.state.depth >= MAX_PAYLOAD_DEPTH else []
        try:
            tree = parse_python(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return [Hit(h.rule, 0, 0, h.detail, "MEDIUM", h.level) for h in token_hits(source, self.state.threats, paths=self.state.paths)]
        return self.analyse_nested(tree, self._imports()).hits

    def _imports(self) -> dict[str, Value]:
        """What code the program runs sees of the program's names: its imports."""
        return {name: value for name, value in self.state.env.items() if isinstance(value, Ref)}

    def names_bound_by(self, payload: Value) -> dict[str, Value]:
        """What code run by exec binds in the program's own namespace, when its text is known whole:
        the program sees those names after it (``exec('import os as w')`` makes ``w`` os). Its own
        functions stay its own (their bodies are not the program's)."""
        if self.state.depth >= MAX_PAYLOAD_DEPTH:
            return {}
        bound: dict[str, Value] = {}
        imports = self._imports()
        for source in _readable_sources(payload)[:8]:
            if len(source) > 256_000:
                continue
            try:
                tree = parse_python(source)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            for name, value in self.analyse_nested(tree, imports).env.items():
                if imports.get(name) is not value and not (isinstance(value, Ref) and value.qual.startswith("<local>.")):
                    bound[name] = value
        return bound

    def judge_command(self, node: ast.Call, qualname: str, args: list[Value], kwargs: dict[str, Value], ctx: WalkContext) -> None:
        self.state.command_sinks.append(node)
        if qualname in rules.SPAWN_FAMILY:
            command = Seq(NO_FLAGS, tuple(args[2:])) if qualname.endswith(("l", "le", "lp", "lpe")) else (args[2] if len(args) > 2 else UNKNOWN)
        elif qualname in rules.EXEC_FAMILY:
            command = Seq(NO_FLAGS, tuple(args[1:])) if "l" in qualname.split(".")[-1][4:] else (args[1] if len(args) > 1 else UNKNOWN)
        elif qualname in rules.POSIX_SPAWN:
            command = args[1] if len(args) > 1 else UNKNOWN
        elif qualname in ("asyncio.create_subprocess_exec",):
            command = Seq(NO_FLAGS, tuple(args))
        else:
            command = args[0] if args else kwargs.get("args") or kwargs.get("cmd") or kwargs.get("command") or UNKNOWN
        flags = command.flags | flags_of([command])
        label = qualname.replace("builtins.", "")
        self.state.hit("command-exec", node, f"runs a command with {label}", "MEDIUM")
        if "net" in flags:
            self.state.hit("remote-command-exec", node, f"{label} runs a command received over the network")
        if flags & ENCODING_FLAGS:
            self.state.hit("obfuscated-exec", node, f"{label} runs a command that is decoded at run time")
        texts = command_texts(command)
        first_word = command.items[0] if isinstance(command, Seq) and command.items else command
        interpreter = isinstance(first_word, Ref) and first_word.qual in ("sys.executable", "sys.argv")
        if not interpreter and _unidentified(first_word) and not flags & ({"self", "net"} | ENCODING_FLAGS):
            # the program it runs is not known at assessment (downloaded, looked up, computed): opacity.py
            self.state.hit("opacity", node, f"{label} runs a program the analysis cannot identify; a person must read it")
        tool = next((program_name(argv[0]) for _, argv in texts if argv and program_name(argv[0]) in rules.SENDING_TOOLS), None)
        if tool is not None and "secret" in flags:
            self.state.hit("exfiltration", node, f"hands credentials to `{tool}`, which sends them over the network")
        elif tool is not None and "sysfile" in flags and flags & {"param", "sliced"}:
            # in one function this flow is Semgrep's; through slices (ping -p with 16 bytes at a
            # time) and across functions it is ours, as for sends (decision 0010)
            how = "handed over from another function" if "param" in flags else "in slices"
            self.state.hit("send-system-file", node, f"puts the contents of a file outside the working directory, {how}, on the "
                           f"command line of `{tool}`, which sends them over the network")
        for text, argv in texts:
            for found in (command_hits(text, 0, self.state.paths) if not argv else _argv_or_text_hits(argv, self.state.paths)):
                self.state.hit(found.rule, node, f"{found.detail} ({label}: {clip(text)})")
            for segment in ([argv] if argv else command_segments(text)[:16]):
                for operation, path in command_path_ops(segment):
                    self.resources.judge_path(node, listed_folder(path) if operation == "list" else path, operation)
            words = argv or (command_segments(text)[0] if command_segments(text) else [])
            if words and (program_name(words[0]) in rules.SHELLS) and not ({"-c", "/c", "-command"} & {w.lower() for w in words[1:]}):
                self.state.shell_spawns.append(node)
            for package in _pip_packages(argv or text.split()):
                self.check_package(node, package)
            if self.state.writes_compose and len(words) > 1 and (program_name(words[0]) == "docker-compose" or (
                    program_name(words[0]) == "docker" and words[1] == "compose")):
                self.state.hit("docker-socket", node, f"runs containers from a compose file or Dockerfile the program wrote itself ({label}: "
                               f"{clip(text)})")
        if qualname in rules.PTY_SPAWN:
            self.state.shell_spawns.append(node)
        for stream in ("stdin", "stdout", "stderr"):
            value = kwargs.get(stream)
            if value is not None and "sockfd" in value.flags:
                self.state.hit("reverse-shell", node, f"connects the command's {stream} to a socket, handing it to a remote party")
                break
        if "self" in flags and any(loop.infinite for loop in ctx.loops):
            self.state.hit("fork-bomb", node, "starts copies of this program in an endless loop")

    def judge_fork(self, node: ast.AST, ctx: WalkContext) -> None:
        if not ctx.loops:
            self.state.hit("process-fork", node, "forks the process", "MEDIUM")
            return
        if any(loop.infinite or isinstance(loop.node, ast.While) for loop in ctx.loops):
            return  # judged with the loop: a forking server that accepts connections is not a bomb
        bounds = [loop.bound for loop in ctx.loops]
        if any(bound is None for bound in bounds):
            self.state.hit("unbounded-fork", node, "forks inside a loop whose length is not known")
            return
        total = 1
        for bound in bounds:
            total *= max(bound or 0, 1)
        if total > 64:
            self.state.hit("fork-bomb", node, f"forks {total} times in a loop")
        else:
            self.state.hit("process-fork", node, f"forks {total} time(s) in a loop", "MEDIUM")

    def check_package(self, node: ast.AST, name: str) -> None:
        """An import, written or dynamic, of a package on the threat list (the walker checks each import)."""
        top = name.split(".")[0]
        if not top or top in sys.stdlib_module_names:
            return
        for candidate in {top, name}:
            normal = normalise_package(candidate)
            if normal in self.state.threats.packages:
                reference = self.state.threats.packages[normal]
                self.state.hit("known-threat-package", node, f"imports `{candidate}`, a known-malicious package"
                               + (f" ({reference})" if reference else ""))
                return
