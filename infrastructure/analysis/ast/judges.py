"""The judges: turning what the evaluator and the walker found about a call into hits (rules.py
names the rules; the policy gives their levels).
"""

from __future__ import annotations

import ast
import posixpath
import re
import sys
from typing import Any

from mai_safety.domain.levels import RiskLevel

from ..policy import SensitivePaths, normalise_package
from . import rules
from .commands import (
    PLACEHOLDER,
    CommandHit,
    argv_hits,
    command_hits,
    command_path_ops,
    command_segments,
    normalise_path,
    outside_working_dir,
    program_name,
)
from .values import (
    ENCODING_FLAGS,
    NO_FLAGS,
    UNKNOWN,
    Alternatives,
    Code,
    Instance,
    Num,
    Partial,
    Ref,
    Seq,
    Str,
    Unknown,
    Value,
    canonical,
    command_texts,
    flags_of,
    folded_strings,
    join_path,
    listed_folder,
    mode_letters,
    strings_of,
)
from .state import AnalysisState, Hit, WalkContext, clip
from .parsing import parse_python, token_hits


MAX_PAYLOAD_DEPTH = 3  # exec("exec('...')") is followed this many levels deep
_HARMLESS_ALONE = frozenset({"sys", "base64", "codecs", "zlib", "urllib", "requests", "http", "importlib"})


def _is_dangerous(qualname: str) -> bool:
    """Whether reaching ``q`` by an assembled name can only serve to hide something."""
    if qualname in rules.CODE_EXEC or qualname in rules.COMMANDS or qualname in rules.FORKS or qualname in rules.DECODERS:
        return True
    if qualname in ("builtins.__import__", "builtins.getattr", "importlib.import_module", "builtins.open"):
        return True
    top = qualname.split(".")[0]
    return top in rules.DANGEROUS_MODULES and top not in _HARMLESS_ALONE


def _invocations(func: Value, args: list[Value], kwargs: dict[str, Value], iterate: Any) -> list[tuple[Value, list[Value], dict[str, Value]]]:
    """The calls one call node makes: itself, each function it may be (a name bound to several),
    a partial's function with its bound arguments, and functions handed over to be called (map,
    threads, processes, executors)."""
    out: list[tuple[Value, list[Value], dict[str, Value]]] = [(func, args, kwargs)]
    if isinstance(func, Alternatives):
        out += [(option, args, kwargs) for option in func.options[:8] if isinstance(option, (Ref, Partial))]
    for index, (target, target_args, target_kwargs) in enumerate(list(out)):
        if isinstance(target, Partial):
            out[index] = (target.func, [*target.args, *target_args], target_kwargs)
    qualname = func.qual if isinstance(func, Ref) else ""
    method = qualname.split("#", 1)[1].split(".")[-1] if "#" in qualname else qualname.rsplit(".", 1)[-1]
    handed: list[tuple[Value, list[Value]]] = []
    if qualname in ("builtins.map", "builtins.filter") or ("#" in qualname and method in ("map", "imap", "imap_unordered", "starmap")):
        if len(args) >= 2:
            items = iterate(args[1]) or [UNKNOWN]
            handed += [(args[0], [item]) for item in items[:8]]
    elif qualname in ("threading.Thread", "multiprocessing.Process") or qualname.endswith("Process"):
        target_args = kwargs.get("args")
        handed.append((kwargs.get("target", UNKNOWN), list(target_args.items) if isinstance(target_args, Seq) else []))
    elif qualname == "threading.Timer" and len(args) >= 2:
        handed.append((args[1], list(args[2].items) if len(args) > 2 and isinstance(args[2], Seq) else []))
    elif "#" in qualname and method in ("submit", "apply_async", "apply", "call_soon", "call_soon_threadsafe") and args:
        handed.append((args[0], list(args[1:])))
    elif qualname == "asyncio.to_thread" and args:
        handed.append((args[0], list(args[1:])))
    elif "#" in qualname and method == "run_in_executor" and len(args) >= 2:
        handed.append((args[1], list(args[2:])))
    for target, target_args in handed:
        options = target.options[:8] if isinstance(target, Alternatives) else (target,)
        for option in options:
            if isinstance(option, Partial):
                out.append((option.func, [*option.args, *target_args], {}))
            elif isinstance(option, Ref):
                out.append((option, target_args, {}))
    return out


def _argv_or_text_hits(argv: list[str], paths: SensitivePaths | None = None) -> list[CommandHit]:
    hits = argv_hits(argv, 0, paths)
    joined = " ".join(argv)
    if rules.REVERSE_SHELL_TEXT.search(joined) and not any(h.rule == "reverse-shell" for h in hits):
        hits.append(CommandHit("reverse-shell", "opens a shell over a network connection", True))
    return hits


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


class CallJudges(AnalysisState):
    """Pass-two judgements of a call: what it runs (commands, code, imports), what it does to processes,
    and the facts it adds for the rules over the whole program. Files, network and privileges are
    ResourceJudges' (resource_judges.py)."""

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
        if name in rules.EXECUTABLE_MEMORY_NAMES:
            self.exec_memory_names.append(node)
        if name in ("SOCK_RAW", "AF_PACKET") and isinstance(node, ast.Attribute):
            self.hit("privileged-call", node, f"opens a raw socket ({name}), which needs CAP_NET_RAW", "MEDIUM")

    def _on_text(self, node: ast.AST, text: str, ctx: WalkContext, folded: bool = False) -> None:
        if not text or len(text) < 3:
            return
        how = " (assembled at run time)" if folded else ""
        if rules.MINER_TEXT.search(text) or (rules.MINER_BINARIES.search(text) and re.search(r"(^|[/\s])\.?/?" + rules.MINER_BINARIES.pattern, text, re.I)):
            self.hit("crypto-miner", node, f"mentions a mining pool, protocol, wallet or miner{how}: {clip(text)}")
        if rules.DOCKER_SOCKET_TEXT.search(text):
            self.hit("docker-socket", node, f"refers to the Docker socket{how}")
        if rules.SECURITY_PROCESS_NAME.search(text):
            self.security_names.append(node)
        if rules.WALLET_TEXT.search(text):
            self.wallet_texts.append(node)
        if rules.COMMAND_HINT.search(text):
            for found in command_hits(text, 0, self.paths):
                if found.malicious:
                    self.deferred_text.append((node, found))

    def _on_call(self, node: ast.Call, ctx: WalkContext) -> None:
        func = self.evaluate(node.func)
        args = self._arguments(node)
        kwargs = {k.arg: self.evaluate(k.value) for k in node.keywords if k.arg}
        for target, target_args, target_kwargs in _invocations(func, args, kwargs, self._iterate):
            self._on_invocation(node, target, target_args, target_kwargs, ctx)

    def _on_invocation(self, node: ast.Call, func: Value, args: list[Value], kwargs: dict[str, Value], ctx: WalkContext) -> None:
        qualname = func.qual if isinstance(func, Ref) else ""
        if qualname in rules.CHILD_MAKERS or qualname in rules.FORKS:
            self.makes_children = True
        kinds = self._kinds(qualname, func, args, kwargs)
        if self._rewrites_in_place(node, qualname, args, kwargs, ctx):
            kinds = kinds | {"rewrite"}
        if kinds & {"delete", "rewrite", "move"} and any(outside_working_dir(text) for text in self._changed_paths(qualname, func, args)):
            kinds = kinds | {"outwrite"}  # what it writes or removes lies outside the working directory
        if ctx.func is not None:
            self.func_kinds.setdefault(ctx.func, set()).update(kinds)
        self._learn_from_call(qualname, func, args, kwargs)
        if "#" in qualname and qualname.rsplit("#", 1)[1].rsplit(".", 1)[-1] in ("map", "imap", "imap_unordered", "starmap", "submit", "apply_async") \
                and args and isinstance(args[0], Ref) and args[0].qual.startswith("<local>."):
            self.handed.add(args[0].qual.split(".", 1)[1])
        callee = self._local_callee(qualname)
        if callee is not None:
            if self.pass_no == 1:
                method = not qualname.startswith("<local>.") or callee in self.classes
                site_args = [UNKNOWN, *args] if method else args  # a method's or constructor's `self` first
                self.call_sites.setdefault("__init__" if callee in self.classes else callee, []).append((site_args, kwargs))
                if ctx.func is not None:
                    self.func_calls.setdefault(ctx.func, set()).add(callee)
            kinds = kinds | self.func_kinds.get(callee, set())
        for loop in ctx.loops:
            loop.kinds.update(kinds)
        if self.pass_no != 2:
            return
        if ctx.func is not None and qualname == f"<local>.{ctx.func}" and "fork" in self.func_kinds.get(ctx.func, set()):
            self.hit("fork-bomb", node, f"`{ctx.func}` forks and calls itself, multiplying processes without end")
        self._judge_call(node, qualname, func, args, kwargs, ctx)

    def _rewrites_in_place(self, node: ast.Call, qualname: str, args: list[Value], kwargs: dict[str, Value], ctx: WalkContext) -> bool:
        """Whether this call writes the file a read in the same function (or loop body) read: what
        ransomware does to each file it finds; or overwrites the very file a loop found (truncating
        it). Files are told apart by how the code names them."""
        method = qualname.split("#", 1)[1] if "#" in qualname else ""
        found = {n.id for loop in ctx.loops if isinstance(loop.node, (ast.For, ast.AsyncFor))
                 for n in ast.walk(loop.node.target) if isinstance(n, ast.Name)}
        if qualname.startswith("pathlib.Path#") and method in ("write_bytes", "write_text") and isinstance(node.func, ast.Attribute):
            receiver = ast.unparse(node.func.value)
            if receiver in found:
                return True
            inner = [n for a in node.args for n in ast.walk(a) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                     and n.func.attr in ("read_bytes", "read_text") and ast.unparse(n.func.value) == receiver]
            return bool(inner) or (ctx.func, receiver) in self.read_names
        if qualname in rules.FILE_OPENERS and node.args:
            name = (ctx.func, ast.unparse(node.args[0]))
            mode = args[1] if len(args) > 1 else kwargs.get("mode")
            writing = bool(set(mode_letters(mode)) & set("wa"))
            if "w" in mode_letters(mode) and isinstance(node.args[0], ast.Name) and node.args[0].id in found:
                return True  # open(f, "wb") on each file f a walk found: emptied
            if not writing:
                self.read_names.add(name)
                return False
            return name in self.read_names
        if qualname.startswith("pathlib.Path#") and method in ("read_bytes", "read_text", "open") and isinstance(node.func, ast.Attribute):
            self.read_names.add((ctx.func, ast.unparse(node.func.value)))
        return False

    @staticmethod
    def _changed_paths(qualname: str, func: Value, args: list[Value]) -> list[str]:
        """The paths a writing, moving or deleting call changes, as far as they are known."""
        recv = func.recv if isinstance(func, Ref) else None
        if qualname.startswith("pathlib.Path#") and isinstance(recv, Instance) and recv.path is not None:
            return [recv.path]
        target = args[1] if qualname in rules.WRITE_DEST_SECOND and len(args) > 1 else args[0] if args else None
        texts = strings_of(target)[:16] if target is not None else []
        if qualname in ("shutil.move", "os.rename", "os.replace") and args:
            texts += strings_of(args[0])[:16]
        return [text for text in texts if not text.startswith(PLACEHOLDER)]

    def _local_callee(self, qualname: str) -> str | None:
        """The program's own function (or class) a call reaches: ``f(...)``, or ``obj.f(...)`` /
        ``self.f(...)`` when the program defines a function named ``f``."""
        if qualname.startswith("<local>."):
            return qualname.split(".", 1)[1]
        if "#" in qualname:
            name = qualname.rsplit("#", 1)[1].rsplit(".", 1)[-1]
            if name in self.local_funcs and not name.startswith("__"):
                return name
        return None

    def _learn_from_call(self, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value]) -> None:
        """Facts a call establishes for what follows: argparse defaults, where os.chdir went, files
        holding the program's own pid, functions handed network data as callbacks."""
        recv = func.recv if isinstance(func, Ref) else None
        if qualname.endswith("#add_argument") and isinstance(recv, Instance) and recv.kind == "argparse.ArgumentParser" and args:
            names = [a.value for a in args if isinstance(a, Str)]
            longs = [n for n in names if n.startswith("--")] or [n for n in names if not n.startswith("-")] or names
            dest = kwargs.get("dest")
            name = dest.value if isinstance(dest, Str) else (longs[0].lstrip("-").replace("-", "_") if longs else None)
            default = kwargs.get("default")
            if name and default is not None and not (isinstance(default, Num) and default.value in (None, True, False)):
                self.arg_defaults[name] = default
        elif qualname == "os.chdir" and args:
            texts = strings_of(args[0])
            if texts and PLACEHOLDER not in texts[0]:
                target = texts[0] if texts[0].startswith(("/", "~")) or self.cwd is None else join_path([self.cwd, texts[0]])
                self.cwd = posixpath.normpath(target) if target.startswith("/") else target
            else:
                self.cwd = None
        elif qualname in rules.MOCK_PATCHERS and args:
            if isinstance(args[0], Str):  # mock.patch("os.kill"), monkeypatch.setattr("os.kill", ...)
                self.mocked.add(canonical(args[0].value))
            elif isinstance(args[0], Ref) and len(args) > 1 and isinstance(args[1], Str):  # patch.object(os, "kill")
                self.mocked.add(canonical(f"{args[0].qual}.{args[1].value}"))
        elif qualname in ("pathlib.Path#write_text", "pathlib.Path#write_bytes", "file#write") and args and "ownpid" in args[0].flags:
            if isinstance(recv, Instance) and recv.path:
                self.own_pid_files.add(normalise_path(recv.path))
        if self.pass_no == 1:
            for key in ("on_message", "on_data", "on_msg", "message_handler", "on_recv"):
                handler = kwargs.get(key)
                if isinstance(handler, Ref) and handler.qual.startswith("<local>.") and (qualname.startswith(rules.NETWORK_PREFIXES) or "socket" in qualname.lower()):
                    network_data = Unknown(frozenset({"net"}))
                    self.call_sites.setdefault(handler.qual.split(".", 1)[1], []).append(([network_data, network_data], {}))

    def _in_cwd(self, text: str) -> str:
        """A relative path as seen after the program's os.chdir, if it changed to a known folder."""
        if self.cwd is None or text.startswith(("/", "~")) or PLACEHOLDER in text[:1]:
            return text
        return join_path([self.cwd, text])

    def _kinds(self, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value]) -> set[str]:
        kinds: set[str] = set()
        method = qualname.split("#", 1)[1].split(".")[-1] if "#" in qualname else qualname.rsplit(".", 1)[-1]
        if qualname in rules.FORKS:
            kinds.add("fork")
        if qualname in rules.NONBLOCKING_SPAWN or qualname.endswith(("Process#start",)) or (qualname in rules.SPAWN_FAMILY and args and isinstance(args[0], Ref)
                                                                           and args[0].qual.endswith("P_NOWAIT")):
            kinds.add("spawn")
        if qualname in ("os.system",) and any(t.rstrip().endswith("&") for a in args[:1] for t in strings_of(a)):
            kinds.add("spawn")
        if qualname in rules.WAITS or ("#" in qualname and method in rules.WAIT_METHODS):
            kinds.add("wait")
        if qualname in rules.COMMANDS or qualname in rules.CODE_EXEC:
            kinds.add("exec")
        if (qualname.startswith("socket.socket#") and method in rules.SOCKET_RECV_METHODS) or (qualname.startswith(rules.HTTP_FETCH_PREFIXES) and "#" not in qualname):
            kinds.add("recv")
        if "#" in qualname and method in ("recv", "recvfrom", "read", "readline") and func.flags & {"net", "sockfd"}:
            kinds.add("recv")
        if method == "accept":
            kinds.add("accept")
        if qualname in rules.DELETES or (qualname.startswith("pathlib.Path#") and method in rules.PATH_DELETE_METHODS | {"write_bytes", "write_text"}) or (
                "#" in qualname and method in ("unlink", "rmdir", "rmtree")):  # p.unlink() on whatever a walk gave
            kinds.add("delete")
        modes = [mode_letters(m) for m in args[1:2] + [kwargs.get("mode", UNKNOWN)]] if qualname in rules.FILE_OPENERS else \
            [mode_letters(m) for m in args[:1] + [kwargs.get("mode", UNKNOWN)]] if qualname == "pathlib.Path#open" else []
        if any(set(m) & set("wax+") for m in modes):
            kinds.add("delete")
        if any("+" in m and "w" not in m for m in modes):
            kinds.add("rewrite")  # opened to read and write in place
        if qualname in ("os.rename", "os.replace", "shutil.move") or (qualname.startswith("pathlib.Path#") and method in ("rename", "replace")):
            kinds.add("move")
        if qualname in rules.KILLS or ("#" in qualname and method in rules.KILL_METHODS):
            kinds.add("kill")
        if "#" in qualname and method in rules.ENCRYPT_METHODS:
            kinds.add("encrypt")
        if "#" in qualname and method in ("execute", "executescript", "executemany") and any(
                rules.DESTRUCTIVE_SQL.match(text) for a in args[:1] for text in strings_of(a)):
            kinds.add("delete")  # DROP TABLE / DELETE FROM in each database a walk found
        return kinds

    def _judge_call(self, node: ast.Call, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value], ctx: WalkContext) -> None:
        a0 = args[0] if args else None
        for value in [*args, *kwargs.values()]:
            for text in folded_strings(value):
                self._on_text(node, text, ctx, folded=True)
        dangerous = isinstance(func, Ref) and _is_dangerous(qualname)
        if dangerous and "obfname" in func.flags:
            self.hit("obfuscated-call", node, f"reaches `{qualname.removeprefix('builtins.')}` through a name assembled at run time")
        elif dangerous and "indirect" in func.flags:
            self.hit("indirect-call", node, f"reaches `{qualname.removeprefix('builtins.')}` indirectly (getattr/__import__/globals)", "MEDIUM")
        if qualname in ("builtins.__import__", "importlib.import_module", "importlib.util.find_spec") and a0 is not None:
            self._judge_import_call(node, qualname, a0)
        if qualname in rules.CODE_EXEC:
            self._judge_code_exec(node, qualname, a0, ctx)
        elif qualname in ("types.FunctionType", "types.LambdaType") and isinstance(a0, Code) and "marshal" in a0.flags:
            self.hit("obfuscated-exec", node, "builds a function from marshalled bytecode")
        if qualname in rules.COMMANDS:
            self._judge_command(node, qualname, args, kwargs, ctx)
        if qualname in rules.FORKS:
            self._judge_fork(node, ctx)
        if qualname == "os.dup2" and a0 is not None and "sockfd" in a0.flags:
            self.hit("reverse-shell", node, "redirects a standard stream onto a socket (os.dup2), the core of a reverse shell")
        if qualname in rules.DESERIALIZERS or (qualname == "yaml.load" and not any("Safe" in getattr(v, "qual", "") for v in [*args[1:], *kwargs.values()])):
            self.hit("deserialization", node, f"`{qualname}` can run code hidden in the data it loads", "MEDIUM")
        self._judge_files(node, qualname, func, args, kwargs, ctx)
        self._judge_network(node, qualname, func, args, kwargs)
        self._judge_privileged(node, qualname, func, args, kwargs)
        if qualname in rules.WEAK_HASHES and not (isinstance(kwargs.get("usedforsecurity"), Num) and kwargs["usedforsecurity"].value is False):  # type: ignore[union-attr]
            self.hit("weak-crypto", node, f"`{qualname}` is a broken hash for security purposes", "MEDIUM")
        elif qualname == "hashlib.new" and isinstance(a0, Str) and a0.value.lower() in ("md5", "sha1", "md4"):
            self.hit("weak-crypto", node, f"hashlib.new('{a0.value}') is a broken hash for security purposes", "MEDIUM")
        elif qualname.startswith(rules.WEAK_CIPHERS) or (qualname.endswith(".new") and any(getattr(v, "qual", "").endswith("MODE_ECB") for v in args)):
            self.hit("weak-crypto", node, f"`{qualname}` is a weak cipher or mode", "MEDIUM")
        if "kill" in self._kinds(qualname, func, args, kwargs):
            self.kill_calls.append(node)
            if qualname in rules.KILLS and a0 is not None and isinstance(a0, Num) and a0.value in (1, -1):
                self.hit("privileged-call", node, "signals init or every process")
            self._judge_process_control(node, qualname, func, args, kwargs)
        if qualname.startswith(("ctypes.", "cffi.", "_ctypes.")) or qualname in ("ctypes", "cffi.FFI"):
            self.native.append(node)
        if qualname in rules.CLIPBOARD or qualname.endswith(("#clipboard_get", "#clipboard_append", "#setText", "#text")) and "clipboard" in qualname.lower():
            self.clipboard.append(node)
        if qualname in rules.SANDBOX_ESCAPES:
            self.hit("docker-socket", node, f"`{qualname}` talks to the Docker daemon, which is root on the host")

    def _judge_process_control(self, node: ast.Call, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value]) -> None:
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
            foreign = self._foreign_process(target)
            if not foreign and self._own_process(target):
                return
            if not foreign and ("cwdpid" in target.flags or qualname in self.mocked):
                lesser = "replaced by a mock in this program (a test)" if qualname in self.mocked else \
                    "whose pid it read from a pid file in its working directory (its own service or worker)"
            if not foreign and isinstance(target, Ref) and "#" in target.qual and target.qual.endswith(("#pid", ".pid")) and self.makes_children:
                return  # `<something>.pid` in a program that starts children: most likely one of them
            what = "a process it found (psutil)" if foreign else "a process it did not start"
        elif method in rules.KILL_METHODS:
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
            self.hit("process-signal", node, f"signals a process ({qualname.rsplit('.', 1)[-1]}) {lesser}", "MEDIUM")
            return
        if isinstance(signal, Num) and isinstance(signal.value, int):
            name = "gentle" if signal.value in rules.GENTLE_SIGNAL_NUMBERS else ""
        elif isinstance(signal, Ref):
            name = "gentle" if signal.qual.rsplit(".", 1)[-1] in rules.GENTLE_SIGNALS else ""
        verb = method or qualname.rsplit(".", 1)[-1]
        if name == "gentle":
            self.hit("process-signal", node, f"sends a signal ({verb}) to {what}", "MEDIUM")
        else:
            self.hit("process-control", node, f"stops or kills {what} ({verb}); only the program's own children are its to stop")

    def _judge_import_call(self, node: ast.AST, qualname: str, name: Value) -> None:
        if isinstance(name, Str):
            module = name.value
            if name.flags & {"built", "encoded", "opaque"}:
                if module.split(".")[0] in rules.DANGEROUS_MODULES:
                    self.hit("obfuscated-call", node, f"imports `{module}` through a name assembled at run time")
                else:
                    self.hit("dynamic-import", node, f"imports `{module}` through a name assembled at run time", "MEDIUM")
            elif module.split(".")[0] in rules.DANGEROUS_MODULES:
                self.hit("indirect-call", node, f"imports `{module}` through {qualname.split('.')[-1]}()", "MEDIUM")
            self._check_package(node, module)
        elif name.flags & ENCODING_FLAGS:
            self.hit("obfuscated-call", node, "imports a module whose name is decoded at run time")
        else:
            self.hit("dynamic-import", node, "imports a module whose name is only known at run time", "MEDIUM")

    def _judge_code_exec(self, node: ast.AST, qualname: str, payload: Value | None, ctx: WalkContext) -> None:
        name = qualname.removeprefix("builtins.")
        if payload is None:
            return
        if "net" in payload.flags:
            self.hit("remote-command-exec", node, f"{name}() runs code received over the network")
            return
        if isinstance(payload, Code) and "marshal" in payload.flags:
            self.hit("obfuscated-exec", node, f"{name}() runs marshalled bytecode, which cannot be reviewed")
            return
        sources = [s for s in strings_of(payload) if PLACEHOLDER not in s]
        if isinstance(payload, Code) and payload.source is not None:
            sources = [payload.source]
        encoded = bool(payload.flags & ENCODING_FLAGS)
        if not sources:
            if encoded:
                self.hit("obfuscated-exec", node, f"{name}() runs a payload that is decoded at run time")
            elif qualname in ("runpy.run_path", "runpy.run_module", "builtins.execfile"):
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
            shown = f": {clip(sources[0])}" if sources[0].strip() else ""
            self.hit("obfuscated-exec", node, f"{name}() runs code that is decoded at run time{shown}")
        elif payload.flags & {"built"} and risky:
            self.hit("obfuscated-exec", node, f"{name}() runs code assembled from pieces: {clip(sources[0])}")
        elif payload.flags & {"built"} or isinstance(payload, Code) and qualname != "builtins.compile":
            self.hit("code-exec", node, f"{name}() runs code assembled at run time", "MEDIUM")

    def _payload_hits(self, source: str) -> list[Hit]:
        if self.depth >= MAX_PAYLOAD_DEPTH or len(source) > 256_000:
            return [Hit("obfuscated-exec", 0, 0, "nests executed code deeper than the analyzer follows")] if self.depth >= MAX_PAYLOAD_DEPTH else []
        try:
            tree = parse_python(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return [Hit(h.rule, 0, 0, h.detail, "MEDIUM", h.level) for h in token_hits(source, self.threats, paths=self.paths)]
        nested = type(self)(self.threats, self.depth + 1, self.paths)
        nested.run(tree)
        return nested.hits

    def _judge_command(self, node: ast.Call, qualname: str, args: list[Value], kwargs: dict[str, Value], ctx: WalkContext) -> None:
        self.command_sinks.append(node)
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
        self.hit("command-exec", node, f"runs a command with {label}", "MEDIUM")
        if "net" in flags:
            self.hit("remote-command-exec", node, f"{label} runs a command received over the network")
        if flags & ENCODING_FLAGS:
            self.hit("obfuscated-exec", node, f"{label} runs a command that is decoded at run time")
        texts = command_texts(command)
        tool = next((program_name(argv[0]) for _, argv in texts if argv and program_name(argv[0]) in rules.SENDING_TOOLS), None)
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
                self.hit(found.rule, node, f"{found.detail} ({label}: {clip(text)})")
            for segment in ([argv] if argv else command_segments(text)[:16]):
                for operation, path in command_path_ops(segment):
                    self._judge_path(node, listed_folder(path) if operation == "list" else path, operation)
            words = argv or (command_segments(text)[0] if command_segments(text) else [])
            if words and (program_name(words[0]) in rules.SHELLS) and not ({"-c", "/c", "-command"} & {w.lower() for w in words[1:]}):
                self.shell_spawns.append(node)
            for package in _pip_packages(argv or text.split()):
                self._check_package(node, package)
            if self.writes_compose and len(words) > 1 and (program_name(words[0]) == "docker-compose" or (
                    program_name(words[0]) == "docker" and words[1] == "compose")):
                self.hit("docker-socket", node, f"runs containers from a compose file or Dockerfile the program wrote itself ({label}: "
                         f"{clip(text)})")
        if qualname in rules.PTY_SPAWN:
            self.shell_spawns.append(node)
        for stream in ("stdin", "stdout", "stderr"):
            value = kwargs.get(stream)
            if value is not None and "sockfd" in value.flags:
                self.hit("reverse-shell", node, f"connects the command's {stream} to a socket, handing it to a remote party")
                break
        if "self" in flags and any(loop.infinite for loop in ctx.loops):
            self.hit("fork-bomb", node, "starts copies of this program in an endless loop")

    def _judge_fork(self, node: ast.AST, ctx: WalkContext) -> None:
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
