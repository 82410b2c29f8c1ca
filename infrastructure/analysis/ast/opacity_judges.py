"""The sinks of opaque values, judged in pass two (opacity.py states the rule and resolves the values):
a call to an opaque callee or with an opaque argument, text run through an entry point, a pickle
the program built, native code loaded, import loaders, doctests and annotations that run.
"""

from __future__ import annotations

import ast

from . import rules
from .commands import PLACEHOLDER
from .execution_judges import ExecutionJudges
from .opacity import (
    CALLBACK_METHODS,
    CALLBACK_TAKERS,
    CAPABILITIES,
    HARMLESS_MODULES,
    IMPORT_HOOKS,
    LOADER_BASES,
    NATIVE_LOADERS,
    NOT_HANDING,
    SAFE_PICKLE_GLOBALS,
    TEXT_RUNNER_CLASSES,
    TEXT_RUNNERS,
    is_opaque,
    known_name,
    pickle_globals,
    texts_in,
)
from .roles import OnInvocation
from .state import AnalysisState, WalkContext
from .values import (
    NO_FLAGS,
    Alternatives,
    Bytes,
    DictSeq,
    Instance,
    Partial,
    Ref,
    Seq,
    Str,
    Value,
    canonical,
    strings_of,
)

#: Calls whose handed functions the analysis follows as calls (judges._invocations).
_FOLLOWED = frozenset({"builtins.map", "builtins.filter", "threading.Thread", "multiprocessing.Process", "threading.Timer",
                       "asyncio.to_thread", "atexit.register", "contextlib.ExitStack#callback", "contextlib.AsyncExitStack#callback",
                       "weakref.finalize", "itertools.starmap", "os.register_at_fork", "signal.signal"})

_FOLLOWED_METHODS = frozenset({"map", "imap", "imap_unordered", "starmap", "submit", "apply_async", "apply", "call_soon",
                               "call_soon_threadsafe", "run_in_executor"})


def _followed(qualname: str) -> bool:
    method = qualname.rsplit("#", 1)[1].rsplit(".", 1)[-1] if "#" in qualname else ""
    return qualname in _FOLLOWED or method in _FOLLOWED_METHODS or qualname.endswith("Process")


def _capability(value: Value) -> str | None:
    """The dangerous function a value is (or may be), by its name."""
    options = value.options if isinstance(value, Alternatives) else (value,)
    for option in options:
        if isinstance(option, Partial):
            option = option.func
        if isinstance(option, Ref) and option.recv is None and option.qual in CAPABILITIES:
            return option.qual.removeprefix("builtins.")
    return None


def _file_key(path: str) -> str:
    """How two spellings of one file are matched: its last component, without ./ or quotes."""
    return path.strip().strip("'\"").rstrip("/").rsplit("/", 1)[-1]


class OpacityJudges:
    """Pass two, the sinks of opaque values: an opaque callee or argument, text run through an entry
    point (code.interact, doctest, logging's config), a pickle the program built, native code loaded,
    import loaders (opacity.py's docstring states the rule)."""

    def __init__(self, state: AnalysisState, execution: ExecutionJudges, on_invocation: OnInvocation) -> None:
        self.state = state
        self.execution = execution
        self.on_invocation = on_invocation  # a function a callback taker calls is judged as called
    # --- the sinks -----------------------------------------------------------------------------------

    def judge_opacity(self, node: ast.Call, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value],
                      ctx: WalkContext) -> None:
        """Pass two, for each call: an opaque callee, an opaque value handed over, text run through an
        entry point, a pickle the program built, native code loaded."""
        called = is_opaque(func)
        if called is not None:
            self.state.hit("opacity", node, f"calls {called.what}: the code chooses at run time which function it calls; a person must read it")
        elif qualname in CALLBACK_TAKERS or ("#" in qualname and qualname.rsplit("#", 1)[1].rsplit(".", 1)[-1] in CALLBACK_METHODS):
            for value in [*args, *kwargs.values()]:
                handed = is_opaque(value)
                if handed is not None:
                    target = qualname.removeprefix("builtins.") or "a call"
                    self.state.hit("opacity", node, f"hands {handed.what} to `{target}`, which may call it; a person must read it")
                    break
        if called is None and qualname not in NOT_HANDING and not _followed(qualname):
            for value in [*args, *kwargs.values()]:
                capability = _capability(value)
                if capability is not None:
                    target = qualname.removeprefix("builtins.") or "a call"
                    self.state.hit("opacity", node, f"hands `{capability}` to `{target}`, which calls it with values the analysis does not "
                                   "follow; a person must read it")
                    break
        if qualname in TEXT_RUNNER_CLASSES and any(value.flags & {"sockfd", "net"} for value in [*args, *kwargs.values()]):
            self.state.hit("remote-command-exec", node, f"`{qualname}` reads the Python code it runs from a network connection")
        self._judge_code_sources(node, qualname, args, kwargs)
        method = "#" + qualname.rsplit("#", 1)[1] if "#" in qualname else ""
        generic = method in ("#exec_module", "#load_module", "#run_docstring_examples") or qualname.split("#")[0] in TEXT_RUNNER_CLASSES
        runner = TEXT_RUNNERS.get(qualname) or (TEXT_RUNNERS.get(method) if generic else None)
        if runner is not None:
            self._judge_text_runner(node, qualname, runner, args, kwargs)
        if qualname.startswith("doctest.") and qualname.split(".")[1] in ("testmod", "run_docstring_examples", "DocTestFinder",
                                                                             "DocTestParser", "testfile", "DocFileSuite", "DocTestSuite"):
            self._judge_doctests(node, qualname)
        if qualname in ("typing.get_type_hints", "inspect.get_annotations", "typing.ForwardRef", "annotationlib.get_annotations"):
            self._judge_annotations(node, qualname, args)
        if qualname in ("logging.config.dictConfig", "logging.config.fileConfig", "logging.config.listen"):
            self._judge_logging_config(node, qualname, args, ctx)
        if qualname in ("pickle.loads", "pickle.load", "pickle.Unpickler", "_pickle.loads", "dill.loads", "copyreg.__newobj__"):
            self._judge_pickle(node, qualname, args[0] if args else kwargs.get("data"))
        if qualname.startswith(NATIVE_LOADERS):
            self.state.native.append(node)
        if qualname.rsplit(".", 1)[0] in IMPORT_HOOKS or qualname.split("#")[0] in IMPORT_HOOKS:
            self.state.hit("opacity", node, "installs its own module finder or path hook: what it imports is code the analysis did not "
                           "read; a person must read it")

    def _judge_text_runner(self, node: ast.Call, qualname: str, runner: tuple[tuple[int, ...], tuple[str, ...]],
                           args: list[Value], kwargs: dict[str, Value]) -> None:
        positions, keywords = runner
        texts = [args[i] for i in positions if i < len(args)] + [kwargs[k] for k in keywords if k in kwargs]
        label = qualname.rsplit("#", 1)[-1].rsplit(".", 1)[-1]
        if not positions and not keywords:
            self.state.hit("opacity", node, f"runs code through `{label}` from a source the analysis did not read; a person must read it")
            return
        for text in texts:
            if isinstance(text, Ref) and (text.qual.startswith("<local>.") or text.qual.split(".")[0] in HARMLESS_MODULES):
                continue  # timeit(f), cProfile.run of a function: the program's own function, judged where it is defined
            self.execution.judge_code_exec(node, label, text, None)

    def _judge_doctests(self, node: ast.Call, qualname: str) -> None:
        """doctest runs the ``>>>`` examples of the program's docstrings: code the analysis can read."""
        if qualname.endswith(("testfile", "DocFileSuite")):
            self.state.hit("opacity", node, "runs the examples of a text file as code (doctest); a person must read it")
            return
        lines = []
        texts = [n.value for n in ast.walk(self.state.tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)] if self.state.tree else []
        for text in texts:
            for line in text.splitlines():
                stripped = line.strip()
                if stripped.startswith((">>> ", "... ")):
                    lines.append(stripped[4:])
        if lines:
            self.execution.judge_code_exec(node, "builtins.doctest", Str(NO_FLAGS, "\n".join(lines)), None)

    def _judge_annotations(self, node: ast.Call, qualname: str, args: list[Value]) -> None:
        """get_type_hints evaluates the annotations written as text: expressions the analysis can read."""
        sources: list[str] = []
        nodes = list(ast.walk(self.state.tree)) if self.state.tree is not None else []
        future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
                     for n in nodes)
        for found in nodes:
            annotations = [found.annotation] if isinstance(found, (ast.arg, ast.AnnAssign)) else [found.returns] if isinstance(
                found, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
            if isinstance(found, ast.Assign) and any(isinstance(t, (ast.Attribute, ast.Name, ast.Subscript)) and "__annotations__" in ast.unparse(t)
                                                     for t in found.targets):
                annotations = [found.value] if not isinstance(found.value, ast.Dict) else list(found.value.values)
            for annotation in annotations:
                if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                    sources.append(annotation.value)
                elif annotation is not None and future:
                    sources.append(ast.unparse(annotation))
        sources = [text for text in sources if text.strip()]
        if sources:
            self.execution.judge_code_exec(node, "builtins.get_type_hints", Str(NO_FLAGS, "\n".join(f"({s})" for s in sources)), None)

    def _judge_logging_config(self, node: ast.Call, qualname: str, args: list[Value], ctx: WalkContext) -> None:
        """dictConfig calls the factory each ``()`` (or ``class``) names with the keys beside it."""
        if qualname != "logging.config.dictConfig":
            self.state.hit("opacity", node, f"configures logging from a source the analysis did not read ({qualname}), which may name "
                           "any function to call; a person must read it")
            return
        config = args[0] if args else None
        if not isinstance(config, DictSeq):
            self.state.hit("opacity", node, "configures logging from a dictionary the analysis cannot read, which may name any function "
                           "to call; a person must read it")
            return
        todo: list[tuple[DictSeq, int]] = [(config, 0)]
        while todo:
            current, depth = todo.pop()
            keys = [known_name(key) for key in current.keys]
            for key, item in zip(keys, current.items):
                if isinstance(item, DictSeq) and depth < 6:
                    todo.append((item, depth + 1))
                if key not in ("()", "class"):
                    continue
                name = known_name(item)
                if name is None and isinstance(item, Ref):  # the factory itself: judged as called
                    self.on_invocation(node, item, [], {}, ctx)
                    continue
                if name is None:
                    self.state.hit("opacity", node, "configures logging with a factory named at run time; a person must read it")
                    continue
                factory = canonical(name.removeprefix("ext://"))
                if factory.split(".")[0] in ("logging", "__main__") or factory.startswith(("logging.", "ext://")):
                    continue
                kwargs = {k: v for k, v in zip(keys, current.items) if k and k not in ("()", "class", ".", "level", "formatter",
                                                                                     "filters")}
                if factory in CAPABILITIES or factory.split(".")[0] in ("os", "subprocess", "pty", "shutil", "socket", "ctypes"):
                    self.state.hit("opacity", node, f"configures logging to call `{factory}` by name, an entry point that hides the call; a "
                                   "person must read it")
                else:
                    self.state.hit("indirect-call", node, f"configures logging to call `{factory}` by name", "MEDIUM")
                self.on_invocation(node, Ref(frozenset({"indirect"}), factory), [], kwargs, ctx)

    def _judge_pickle(self, node: ast.Call, qualname: str, data: Value | None) -> None:
        """Bytes the program built and unpickles: read the pickle's globals without loading it."""
        if isinstance(data, Bytes):
            found = pickle_globals(data.value)
            if found is None:
                self.state.hit("opacity", node, "unpickles bytes the program built, which the analysis cannot read; a person must read it")
                return
            for name in found:
                qual = canonical(name.replace("posix.", "os.").replace("nt.", "os."))
                if qual.startswith(SAFE_PICKLE_GLOBALS):
                    continue
                if qual in rules.COMMANDS or qual in rules.CODE_EXEC or qual.split(".")[0] in ("os", "subprocess", "socket", "pty",
                                                                                                "shutil", "ctypes"):
                    self.state.hit("obfuscated-exec", node, f"unpickles bytes the program built that call `{qual}`")
                else:
                    self.state.hit("opacity", node, f"unpickles bytes the program built that call `{qual}`; a person must read it")
                return
            return
        if data is not None and data.flags & {"built", "encoded", "opaque"}:
            self.state.hit("opacity", node, "unpickles bytes the program built, which the analysis cannot read; a person must read it")

    def learn_downloads(self, qualname: str, recv: Value | None, args: list[Value]) -> None:
        """Files the program fills with what it received from the network: run or imported later,
        they are code the analysis did not read."""
        paths: list[str] = []
        if qualname == "urllib.request.urlretrieve" and len(args) > 1:
            paths = strings_of(args[1])
        elif qualname in ("file#write", "pathlib.Path#write_bytes", "pathlib.Path#write_text") and args and "net" in args[0].flags:
            paths = [recv.path] if isinstance(recv, Instance) and recv.path else []
        self.state.downloaded.update(_file_key(path) for path in paths if path.replace(PLACEHOLDER, "").strip("/."))

    def _judge_code_sources(self, node: ast.Call, qualname: str, args: list[Value], kwargs: dict[str, Value]) -> None:
        """A command that runs (or reads its input from) a file the program downloaded; an import path
        that gains an archive or a place the analysis cannot name."""
        if self.state.downloaded and (qualname in rules.COMMANDS or qualname in ("runpy.run_path", "builtins.execfile")):
            for text in texts_in([*args, *kwargs.values()]):
                if _file_key(text) in self.state.downloaded:
                    self.state.hit("opacity", node, f"runs {text}, a file it filled with what it downloaded: code the analysis did not "
                                   "read; a person must read it")
                    return
        if qualname in ("sys.path.insert", "sys.path.append", "site.addsitedir", "sys.path.extend") and args:
            entry = args[-1]
            texts = strings_of(entry) if not isinstance(entry, Seq) else texts_in(list(entry.items))
            unseen = not texts and not entry.flags & {"self", "user", "param"}
            archive = [t for t in texts if t.lower().endswith((".zip", ".egg", ".whl", ".pyz")) or _file_key(t) in self.state.downloaded]
            if unseen or archive:
                where = archive[0] if archive else "a place the analysis cannot name"
                self.state.hit("opacity", node, f"adds {where} to the import path: the modules imported from there are code the "
                               "analysis did not read; a person must read it")

    def judge_loader_class(self, node: ast.ClassDef, bases: list[Value]) -> None:
        """A class derived from the import system's loaders or finders supplies the code that is imported;
        one derived from an interpreter or debugger runs the text it is given."""
        for base in bases:
            if isinstance(base, Ref) and base.qual in TEXT_RUNNER_CLASSES:
                self.state.hit("opacity", node, f"defines its own interpreter or debugger (`{node.name}` from `{base.qual}`): it runs Python "
                               "text it reads at run time, which the analysis cannot see; a person must read it")
                return
            if isinstance(base, Ref) and base.qual.startswith(LOADER_BASES):
                self.state.hit("opacity", node, f"defines its own module loader or finder (`{node.name}` from `{base.qual}`): what it "
                               "imports is code the analysis did not read; a person must read it")
                return
