"""The judges: turning what the evaluator and the walker found about a call into hits (rules.py
names the rules; the policy gives their levels).
"""

from __future__ import annotations

import ast
import posixpath
import re
from typing import Any

from . import rules
from .command_lines import command_hits
from .commands import (
    PLACEHOLDER,
    normalise_path,
    outside_working_dir,
)
from .execution_judges import ExecutionJudges
from .opacity_judges import OpacityJudges
from .resource_judges import ResourceJudges
from .roles import Evaluates
from .state import AnalysisState, WalkContext, clip
from .values import (
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
    folded_strings,
    iterate,
    join_path,
    mode_letters,
    strings_of,
)

_HARMLESS_ALONE = frozenset({"sys", "base64", "codecs", "zlib", "urllib", "requests", "http", "importlib"})


def _is_dangerous(qualname: str) -> bool:
    """Whether reaching ``qualname`` by an assembled name can only serve to hide something."""
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
    elif qualname in ("atexit.register", "contextlib.ExitStack#callback", "contextlib.AsyncExitStack#callback") and args:
        handed.append((args[0], list(args[1:])))  # called later, with these arguments
    elif qualname == "weakref.finalize" and len(args) >= 2:
        handed.append((args[1], list(args[2:])))
    elif qualname == "itertools.starmap" and len(args) >= 2:
        rows = iterate(args[1]) or [UNKNOWN]
        handed += [(args[0], list(row.items) if isinstance(row, Seq) else [UNKNOWN]) for row in rows[:8]]
    elif qualname == "os.register_at_fork":
        handed += [(value, []) for value in kwargs.values()]
    elif qualname == "signal.signal" and len(args) >= 2:
        handed.append((args[1], [UNKNOWN, UNKNOWN]))
    for target, target_args in handed:
        options = target.options[:8] if isinstance(target, Alternatives) else (target,)
        for option in options:
            if isinstance(option, Partial):
                out.append((option.func, [*option.args, *target_args], {}))
            elif isinstance(option, Ref):
                out.append((option, target_args, {}))
    return out


class CallJudges:
    """Pass-two judgements of a call: what it runs (commands, code, imports), what it does to processes,
    and the facts it adds for the rules over the whole program. It dispatches to the judges it is
    handed (ExecutionJudges, ResourceJudges) and to the OpacityJudges it makes, which judge calls it
    follows back through ``on_invocation``."""

    def __init__(self, state: AnalysisState, evaluator: Evaluates, resources: ResourceJudges, execution: ExecutionJudges) -> None:
        self.state = state
        self.evaluator = evaluator
        self.resources = resources
        self.execution = execution
        self.opacity = OpacityJudges(state, execution, self.on_invocation)

    def on_name(self, node: ast.AST) -> None:
        name = node.id if isinstance(node, ast.Name) else node.attr  # type: ignore[attr-defined]
        if name in rules.EXECUTABLE_MEMORY_NAMES:
            self.state.exec_memory_names.append(node)
        if name in ("SOCK_RAW", "AF_PACKET") and isinstance(node, ast.Attribute):
            self.state.hit("privileged-call", node, f"opens a raw socket ({name}), which needs CAP_NET_RAW", "MEDIUM")

    def on_text(self, node: ast.AST, text: str, ctx: WalkContext, folded: bool = False) -> None:
        if not text or len(text) < 3:
            return
        how = " (assembled at run time)" if folded else ""
        if rules.MINER_TEXT.search(text) or (rules.MINER_BINARIES.search(text) and re.search(r"(^|[/\s])\.?/?" + rules.MINER_BINARIES.pattern, text, re.I)):
            self.state.hit("crypto-miner", node, f"mentions a mining pool, protocol, wallet or miner{how}: {clip(text)}")
        if rules.DOCKER_SOCKET_TEXT.search(text):
            self.state.hit("docker-socket", node, f"refers to the Docker socket{how}")
        if rules.SECURITY_PROCESS_NAME.search(text):
            self.state.security_names.append(node)
        if rules.WALLET_TEXT.search(text):
            self.state.wallet_texts.append(node)
        if rules.COMMAND_HINT.search(text):
            for found in command_hits(text, 0, self.state.paths):
                if found.malicious:
                    self.state.deferred_text.append((node, found))

    def on_call(self, node: ast.Call, ctx: WalkContext) -> None:
        func = self.evaluator.evaluate(node.func)
        args = self.evaluator.arguments(node)
        kwargs = {k.arg: self.evaluator.evaluate(k.value) for k in node.keywords if k.arg}
        for target, target_args, target_kwargs in _invocations(func, args, kwargs, iterate):
            if isinstance(target, Ref) and target.qual == "<methodcaller>" and isinstance(target.recv, Seq) and target_args:
                # methodcaller(name, *args)(obj) calls obj.name(*args)
                method = self.evaluator.by_name(target_args[0], target.recv.items[0], "methodcaller")
                target, target_args, target_kwargs = method, list(target.recv.items[1:]), {}
            self.on_invocation(node, target, target_args, target_kwargs, ctx)

    def on_invocation(self, node: ast.Call, func: Value, args: list[Value], kwargs: dict[str, Value], ctx: WalkContext) -> None:
        qualname = func.qual if isinstance(func, Ref) else ""
        if qualname in rules.CHILD_MAKERS or qualname in rules.FORKS:
            self.state.makes_children = True
        kinds = self._kinds(qualname, func, args, kwargs)
        if self._rewrites_in_place(node, qualname, args, kwargs, ctx):
            kinds = kinds | {"rewrite"}
        if kinds & {"delete", "rewrite", "move"} and any(outside_working_dir(text) for text in self._changed_paths(qualname, func, args)):
            kinds = kinds | {"outwrite"}  # what it writes or removes lies outside the working directory
        if ctx.func is not None:
            self.state.func_kinds.setdefault(ctx.func, set()).update(kinds)
        self._learn_from_call(qualname, func, args, kwargs)
        if "#" in qualname and qualname.rsplit("#", 1)[1].rsplit(".", 1)[-1] in ("map", "imap", "imap_unordered", "starmap", "submit", "apply_async") \
                and args and isinstance(args[0], Ref) and args[0].qual.startswith("<local>."):
            self.state.handed.add(args[0].qual.split(".", 1)[1])
        callee = self.state.local_callee(qualname)
        if callee is not None:
            if self.state.pass_no == 1:
                method = not qualname.startswith("<local>.") or "#" in qualname or callee in self.state.classes
                site_args = [UNKNOWN, *args] if method else args  # a method's or constructor's `self` first
                self.state.call_sites.setdefault("__init__" if callee in self.state.classes else callee, []).append((site_args, kwargs))
                if ctx.func is not None:
                    self.state.func_calls.setdefault(ctx.func, set()).add(callee)
            kinds = kinds | self.state.func_kinds.get(callee, set())
        for loop in ctx.loops:
            loop.kinds.update(kinds)
        if self.state.pass_no != 2:
            return
        if ctx.func is not None and qualname == f"<local>.{ctx.func}" and "fork" in self.state.func_kinds.get(ctx.func, set()):
            self.state.hit("fork-bomb", node, f"`{ctx.func}` forks and calls itself, multiplying processes without end")
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
            return bool(inner) or (ctx.func, receiver) in self.state.read_names
        if qualname in rules.FILE_OPENERS and node.args:
            name = (ctx.func, ast.unparse(node.args[0]))
            mode = args[1] if len(args) > 1 else kwargs.get("mode")
            writing = bool(set(mode_letters(mode)) & set("wa"))
            if "w" in mode_letters(mode) and isinstance(node.args[0], ast.Name) and node.args[0].id in found:
                return True  # open(f, "wb") on each file f a walk found: emptied
            if not writing:
                self.state.read_names.add(name)
                return False
            return name in self.state.read_names
        if qualname.startswith("pathlib.Path#") and method in ("read_bytes", "read_text", "open") and isinstance(node.func, ast.Attribute):
            self.state.read_names.add((ctx.func, ast.unparse(node.func.value)))
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

    def _learn_from_call(self, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value]) -> None:
        """Facts a call establishes for what follows: argparse defaults, where os.chdir went, the names
        code run by exec binds, files holding the program's own pid, functions handed network data
        as callbacks."""
        recv = func.recv if isinstance(func, Ref) else None
        self.opacity.learn_downloads(qualname, recv, args)
        if qualname.endswith("#add_argument") and isinstance(recv, Instance) and recv.kind == "argparse.ArgumentParser" and args:
            names = [a.value for a in args if isinstance(a, Str)]
            longs = [n for n in names if n.startswith("--")] or [n for n in names if not n.startswith("-")] or names
            dest = kwargs.get("dest")
            name = dest.value if isinstance(dest, Str) else (longs[0].lstrip("-").replace("-", "_") if longs else None)
            default = kwargs.get("default")
            if name and default is not None and not (isinstance(default, Num) and default.value in (None, True, False)):
                self.state.arg_defaults[name] = default
        elif qualname == "os.chdir" and args:
            texts = strings_of(args[0])
            if texts and PLACEHOLDER not in texts[0]:
                target = texts[0] if texts[0].startswith(("/", "~")) or self.state.cwd is None else join_path([self.state.cwd, texts[0]])
                self.state.cwd = posixpath.normpath(target) if target.startswith("/") else target
            else:
                self.state.cwd = None
        elif qualname == "builtins.exec" and args:
            self.state.env.update(self.execution.names_bound_by(args[0]))
        elif qualname in rules.MOCK_PATCHERS and args:
            if isinstance(args[0], Str):  # mock.patch("os.kill"), monkeypatch.setattr("os.kill", ...)
                self.state.mocked.add(canonical(args[0].value))
            elif isinstance(args[0], Ref) and len(args) > 1 and isinstance(args[1], Str):  # patch.object(os, "kill")
                self.state.mocked.add(canonical(f"{args[0].qual}.{args[1].value}"))
        elif qualname in ("pathlib.Path#write_text", "pathlib.Path#write_bytes", "file#write") and args and "ownpid" in args[0].flags:
            if isinstance(recv, Instance) and recv.path:
                self.state.own_pid_files.add(normalise_path(recv.path))
        if self.state.pass_no == 1:
            for key in ("on_message", "on_data", "on_msg", "message_handler", "on_recv"):
                handler = kwargs.get(key)
                if isinstance(handler, Ref) and handler.qual.startswith("<local>.") and (qualname.startswith(rules.NETWORK_PREFIXES) or "socket" in qualname.lower()):
                    network_data = Unknown(frozenset({"net"}))
                    self.state.call_sites.setdefault(handler.qual.split(".", 1)[1], []).append(([network_data, network_data], {}))

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
        self.opacity.judge_opacity(node, qualname, func, args, kwargs, ctx)
        for value in [*args, *kwargs.values()]:
            for text in folded_strings(value):
                self.on_text(node, text, ctx, folded=True)
        dangerous = isinstance(func, Ref) and _is_dangerous(qualname)
        if dangerous and "obfname" in func.flags:
            self.state.hit("obfuscated-call", node, f"reaches `{qualname.removeprefix('builtins.')}` through a name assembled at run time")
        elif dangerous and "indirect" in func.flags:
            self.state.hit("indirect-call", node, f"reaches `{qualname.removeprefix('builtins.')}` indirectly (getattr/__import__/globals)", "MEDIUM")
        if qualname in ("builtins.__import__", "importlib.import_module", "importlib.util.find_spec") and a0 is not None:
            self.execution.judge_import_call(node, qualname, a0)
        if qualname in rules.CODE_EXEC:
            self.execution.judge_code_exec(node, qualname, a0, ctx)
        elif qualname in ("types.FunctionType", "types.LambdaType") and isinstance(a0, Code) and "marshal" in a0.flags:
            self.execution.judge_code_exec(node, "FunctionType", a0, ctx)  # bytecode carried (BLOCKED) or made at run time (opacity)
        elif qualname in ("types.FunctionType", "types.LambdaType") and isinstance(a0, Code):
            self.execution.judge_code_exec(node, "FunctionType", a0, ctx)  # a function made of a code object runs that code
        if qualname in rules.COMMANDS:
            self.execution.judge_command(node, qualname, args, kwargs, ctx)
        if qualname in rules.FORKS:
            self.execution.judge_fork(node, ctx)
        if qualname == "os.dup2" and a0 is not None and "sockfd" in a0.flags:
            self.state.hit("reverse-shell", node, "redirects a standard stream onto a socket (os.dup2), the core of a reverse shell")
        if qualname in rules.DESERIALIZERS or (qualname == "yaml.load" and not any("Safe" in getattr(v, "qual", "") for v in [*args[1:], *kwargs.values()])):
            self.state.hit("deserialization", node, f"`{qualname}` can run code hidden in the data it loads", "MEDIUM")
        self.resources.judge_files(node, qualname, func, args, kwargs, ctx)
        self.resources.judge_network(node, qualname, func, args, kwargs)
        self.resources.judge_privileged(node, qualname, func, args, kwargs)
        if qualname in rules.WEAK_HASHES and not (isinstance(kwargs.get("usedforsecurity"), Num) and kwargs["usedforsecurity"].value is False):  # type: ignore[union-attr]
            self.state.hit("weak-crypto", node, f"`{qualname}` is a broken hash for security purposes", "MEDIUM")
        elif qualname == "hashlib.new" and isinstance(a0, Str) and a0.value.lower() in ("md5", "sha1", "md4"):
            self.state.hit("weak-crypto", node, f"hashlib.new('{a0.value}') is a broken hash for security purposes", "MEDIUM")
        elif qualname.startswith(rules.WEAK_CIPHERS) or (qualname.endswith(".new") and any(getattr(v, "qual", "").endswith("MODE_ECB") for v in args)):
            self.state.hit("weak-crypto", node, f"`{qualname}` is a weak cipher or mode", "MEDIUM")
        if "kill" in self._kinds(qualname, func, args, kwargs):
            self.state.kill_calls.append(node)
            if qualname in rules.KILLS and a0 is not None and isinstance(a0, Num) and a0.value in (1, -1):
                self.state.hit("privileged-call", node, "signals init or every process")
            self.execution.judge_process_control(node, qualname, func, args, kwargs)
        if qualname in rules.CLIPBOARD or qualname.endswith(("#clipboard_get", "#clipboard_append", "#setText", "#text")) and "clipboard" in qualname.lower():
            self.state.clipboard.append(node)
        if qualname in rules.SANDBOX_ESCAPES:
            self.state.hit("docker-socket", node, f"`{qualname}` talks to the Docker daemon, which is root on the host")
