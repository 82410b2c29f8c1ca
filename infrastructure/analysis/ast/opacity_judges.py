"""The sinks of opaque values, judged in pass two (opacity.py states the rule and resolves the values):
a call to an opaque callee or with an opaque argument, text run through an entry point, a pickle
the program built, native code loaded, import loaders, doctests and annotations that run.
"""

from __future__ import annotations

import ast

from . import rules
from .commands import PLACEHOLDER, normalise_path, outside_working_dir
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
    OpacityResolver,
    TEXT_RUNNER_CLASSES,
    TEXT_RUNNERS,
    UNPICKLING_CHANNELS,
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


#: Fields of a code object that name or place it; replacing them changes no behaviour.
_CODE_LABELS = frozenset({"co_name", "co_qualname", "co_filename", "co_firstlineno", "co_linetable", "co_lnotab", "co_exceptiontable"})


def _relabels_code(source: ast.expr | None) -> bool:
    """``f.__code__ = f.__code__.replace(co_name=...)`` renames the code, and ``f.__code__ = g.__code__``
    gives it code the program wrote (judged where it is written): what it runs is still what is shown."""
    if isinstance(source, ast.Attribute) and source.attr == "__code__" and isinstance(source.value, ast.Name):
        return True
    return (isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr == "replace"
            and not source.args and all(keyword.arg in _CODE_LABELS for keyword in source.keywords))


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
        self.resolver = OpacityResolver(state)

    def judge_rebinding(self, target: ast.Attribute, base: Value, value: Value, source: ast.expr | None) -> None:
        """Rebinding what a name means for all code: a function's code replaced, or an attribute of a
        module (``builtins.print``, ``sys.breakpointhook``) given a dangerous function or an opaque value,
        so that later calls of an innocent name run it. The program's own functions, data, and the
        module's own attributes put back are harmless (pass one records them for the calls after)."""
        if target.attr == "__code__" and not _relabels_code(source):
            self.state.hit("opacity", target, "replaces a function's code object: what a call of it runs is not what its source "
                           "says; a person must read it")
            return
        if target.attr == "__code__":
            return
        if not (isinstance(base, Ref) and base.recv is None) or base.qual.startswith("<") or base.qual in self.state.classes:
            return
        qual = f"{base.qual}.{target.attr}"
        self.state.rebound[qual] = value
        options = value.options if isinstance(value, Alternatives) else (value,)
        for option in options:
            hidden = is_opaque(option)
            shown = _capability(option) or (option.qual if isinstance(option, Ref) and option.recv is None and option.qual != qual
                                            and option.qual.split(".")[0] in rules.DANGEROUS_MODULES else None)
            if hidden is not None or shown is not None:
                what = hidden.what if hidden is not None else f"`{shown}`"
                self.state.hit("opacity", target, f"rebinds `{qual}` to {what}: every later use of that name runs it where the source "
                               "shows something else; a person must read it")
                return
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
        if qualname == "builtins.breakpoint" and "sys.breakpointhook" in self.state.rebound:
            runner = None  # breakpoint() calls the hook the program bound, judged where it was bound
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
        if qualname.startswith(UNPICKLING_CHANNELS) and qualname.endswith(("#recv", ".recv")):
            self.state.hit("opacity", node, f"receives objects through `{qualname.split('#')[0]}`, which unpickles them: an object received "
                           "may run any code; a person must read it")
        self._judge_unpacking(node, qualname, args, kwargs)
        if qualname.startswith(NATIVE_LOADERS):
            self.state.native.append(node)
        if qualname.rsplit(".", 1)[0] in IMPORT_HOOKS or qualname.split("#")[0] in IMPORT_HOOKS:
            self.state.hit("opacity", node, "installs its own module finder or path hook: what it imports is code the analysis did not "
                           "read; a person must read it")

    def _judge_unpacking(self, node: ast.Call, qualname: str, args: list[Value], kwargs: dict[str, Value]) -> None:
        """An archive unpacked outside the working directory writes files named inside the archive:
        which files it changes (a start-up file, a key) the analysis cannot see."""
        method = qualname.rsplit("#", 1)[-1] if "#" in qualname else ""
        if qualname == "shutil.unpack_archive":
            target = args[1] if len(args) > 1 else kwargs.get("extract_dir")
        elif method == "extractall" or method == "extract" and qualname.startswith(("tarfile.", "zipfile.")):
            target = kwargs.get("path") or (args[0] if args and method == "extractall" else args[1] if len(args) > 1 else None)
        else:
            return
        for text in strings_of(target) if target is not None else []:
            if outside_working_dir(normalise_path(text)):
                self.state.hit("opacity", node, f"unpacks an archive into {text}, outside the working directory: the files it writes are "
                               "named inside the archive, which the analysis does not read; a person must read it")
                return

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
        text = known_name(args[0]) if args and qualname in ("file#write", "pathlib.Path#write_text") else None
        if text is not None and isinstance(recv, Instance) and recv.path and "net" not in args[0].flags:
            key = _file_key(recv.path)  # text the program writes is text the analysis reads, when it is run later
            if key.replace(PLACEHOLDER, "").strip("/."):
                self.state.written[key] = self.state.written.get(key, "") + text

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
            # a place the analysis cannot name: no text at all, or a file or folder whose own name is made at run time
            unseen = (not texts or all(t.rstrip("/").rsplit("/", 1)[-1] == PLACEHOLDER for t in texts)) and \
                not entry.flags & {"self", "user", "param"}
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
