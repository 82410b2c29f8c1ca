"""Opacity is a finding (issue #28): the one rule for code that hides what it reaches.

Where the analysis cannot resolve what a construct reaches, and what it reaches could be a dangerous
capability, the program is rated HIGH (rule ``opacity``) with a finding that says what could not be
seen; unless the analysis proves the reachable set harmless. The rest of the analyzer resolves what
it can (names assembled from constants, attrgetter and methodcaller with known names, code whose
text it can read, pickles it can disassemble); this module says what happens where that ends:

- **Which values are opaque** (``Opaque`` in values.py): a lookup by a name not known at assessment
  (getattr, attrgetter, methodcaller, ``__getattribute__``, a namespace subscripted: globals(),
  vars(), a module's ``__dict__``, sys.modules; an import by such a name) on a base that may hold a
  capability; a walk through the interpreter's own structures (``__subclasses__`` of a class that is
  not the program's, the globals of code or frames that are not the program's, the garbage
  collector's objects); what running unseen text or bytes gives back.
- **How opacity propagates**: an attribute, item, call result or unpacked element of an opaque
  value is opaque; a lookup by an unknown name on the result of another such lookup is opaque.
- **Which sinks are dangerous**: an opaque value called, or handed to a call that may call it; text
  run as code through any entry point (exec, eval, compile, runpy, timeit, cProfile, code, pdb...)
  that the analysis cannot read; a module loader or finder of the program's own; bytes the program
  built that are unpickled, and channels that unpickle what they receive; bytecode made at run
  time; native code loaded through ctypes or cffi; rebinding what a name means (a library
  attribute given a dangerous or opaque value, a function's code replaced by other behaviour);
  files written outside the working directory under names the analysis cannot read (decoded at
  run time, or named inside an archive it unpacks); a place it cannot name on the import path.
- **What is proven harmless**: plain data (strings, bytes, numbers, lists, dicts), objects and
  classes the program defined whose members are its own visible code (each judged where it is
  defined) and hold no capability (a parameter only ever bound to one of them too), modules of
  pure computation, file objects the program opened, a code object only renamed, a hook bound to
  the program's own function, a file the program wrote with known text (that text is judged), a
  syntax tree built from nodes that cannot call, import or look anything up (decision 0045).

Opacity alone earns HIGH (a person reads the code); BLOCKED stays for what the analysis sees.
This module holds the rule's tables and the evaluator's side (OpacityResolver: what is opaque, what
is proven harmless); the sinks are judged in opacity_judges.py (OpacityJudges).
"""

from __future__ import annotations

import pickletools

from . import rules
from .commands import PLACEHOLDER
from .state import AnalysisState
from .values import (
    NO_FLAGS,
    Alternatives,
    Bytes,
    Code,
    DictSeq,
    Instance,
    Num,
    Opaque,
    Partial,
    Ref,
    Seq,
    Str,
    Unknown,
    Value,
    canonical,
    strings_of,
)

#: A value looked up by an unknown name on a harmless base: calling it is harmless (one step into
#: data or the program's own code); looking further into it is not.
LOOKED_UP = "looked-up"

#: Modules of pure computation: what a lookup reaches in them cannot run commands, touch files or
#: the network in one step.
HARMLESS_MODULES = frozenset({
    "math", "cmath", "statistics", "string", "operator", "json", "re", "collections", "itertools", "functools", "datetime",
    "decimal", "fractions", "textwrap", "enum", "dataclasses", "typing", "calendar", "heapq", "bisect", "copy", "numbers",
    "unicodedata", "difflib", "html", "colorsys", "struct", "array", "hashlib", "hmac", "uuid", "pprint", "reprlib",
    "keyword", "random", "secrets", "zoneinfo",
})
#: Builtin types whose instances are data: a class the program derives from them adds nothing.
DATA_BASES = frozenset({"builtins.object", "builtins.dict", "builtins.list", "builtins.tuple", "builtins.set", "builtins.str",
                        "builtins.int", "builtins.float", "builtins.bytes", "builtins.Exception", "builtins.ValueError",
                        "builtins.KeyError", "builtins.RuntimeError", "builtins.TypeError", "builtins.LookupError",
                        "enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag", "enum.StrEnum", "typing.NamedTuple",
                        "typing.Generic", "typing.Protocol", "abc.ABC", "collections.UserDict", "collections.UserList",
                        "collections.OrderedDict", "collections.defaultdict", "collections.Counter", "json.JSONEncoder",
                        "json.JSONDecoder", "string.Template", "string.Formatter", "html.parser.HTMLParser", "argparse.Action",
                        "logging.Handler", "logging.Formatter", "logging.Filter", "unittest.TestCase", "cmd.Cmd",
                        "threading.Thread", "ast.NodeVisitor", "ast.NodeTransformer", "contextlib.ContextDecorator"})
#: Builtin types of plain data: what a lookup reaches on them is their (harmless) methods.
DATA_TYPES = frozenset({"builtins.str", "builtins.bytes", "builtins.int", "builtins.float", "builtins.complex", "builtins.bool",
                        "builtins.list", "builtins.dict", "builtins.set", "builtins.frozenset", "builtins.tuple", "builtins.bytearray",
                        "builtins.range", "builtins.round", "builtins.abs", "builtins.len", "builtins.min", "builtins.max",
                        "builtins.sum", "builtins.sorted"})
#: Objects of these kinds are data or the program's own files: their methods reach nothing new.
DATA_KINDS = ("argparse.", "configparser.", "file", "io.", "collections.", "datetime.", "decimal.", "fractions.", "json.",
              "string.", "re.", "csv.", "sqlite3.Row")

#: Attributes that walk from an object into the interpreter's own structures.
WALKS = frozenset({"__subclasses__", "__globals__", "__closure__", "f_globals", "f_locals", "f_builtins", "f_back", "tb_frame",
                   "gi_frame", "cr_frame", "ag_frame", "__loader__", "__spec__"})
#: Functions that hand back objects the program did not name.
FINDERS = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents", "inspect.getmembers", "inspect.getmodule",
                     "inspect.stack", "inspect.trace", "inspect.getouterframes", "inspect.getinnerframes", "sys._current_frames",
                     "inspect.getattr_static"})
#: Functions that return the current frame (the program's own, as long as it looks no further up).
OWN_FRAMES = frozenset({"sys._getframe", "inspect.currentframe"})
#: Functions that resolve a dotted name to the object it names.
NAME_RESOLVERS = frozenset({"pkgutil.resolve_name", "pydoc.locate", "importlib.util.resolve_name", "logging.config._resolve",
                            "string.Formatter#get_field"})

#: Classes whose objects resolve names (their methods above, after the '#').
RESOLVER_CLASSES = frozenset(name.split("#")[0] for name in NAME_RESOLVERS if "#" in name)

#: What whoever runs the program gives it: a name or text from here is the user's choice, not
#: something the program hides (the older rules, code-exec and dynamic-import, rate it MEDIUM).
USER_INPUTS = frozenset({"builtins.input", "sys.stdin.read", "sys.stdin.readline", "sys.stdin.readlines", "getpass.getpass"})

#: Entry points that run text as Python code: qualname (or method name) -> the positions and
#: keywords of the text. exec/eval/compile/runpy are the code-exec judges' (execution_judges.py).
TEXT_RUNNERS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "timeit.timeit": ((0, 1), ("stmt", "setup")), "timeit.repeat": ((0, 1), ("stmt", "setup")),
    "timeit.Timer": ((0, 1), ("stmt", "setup")), "cProfile.run": ((0,), ("statement",)), "profile.run": ((0,), ("statement",)),
    "cProfile.runctx": ((0,), ("statement",)), "profile.runctx": ((0,), ("statement",)), "pdb.run": ((0,), ("statement",)),
    "pdb.runeval": ((0,), ("expression",)), "code.compile_command": ((0,), ("source",)), "codeop.compile_command": ((0,), ("source",)),
    "code.interact": ((), ()), "trace.Trace#run": ((0,), ("cmd",)), "trace.Trace#runctx": ((0,), ("cmd",)),
    "#runsource": ((0,), ("source",)), "#runcode": ((0,), ("code",)), "#push": ((0,), ("line",)),
    "cProfile.Profile#run": ((0,), ("cmd",)), "cProfile.Profile#runctx": ((0,), ("cmd",)), "profile.Profile#run": ((0,), ("cmd",)),
    "bdb.Bdb#run": ((0,), ("cmd",)), "pdb.Pdb#run": ((0,), ("cmd",)), "#exec_module": ((), ()), "#load_module": ((), ()),
    "zipimport.zipimporter": ((), ()), "#run_docstring_examples": ((), ()), "#interact": ((), ()), "pdb.Pdb#cmdloop": ((), ()),
    "pdb.Pdb#set_trace": ((), ()), "pdb.set_trace": ((), ()), "builtins.breakpoint": ((), ()),
}
#: Classes whose instances run text (their methods are in TEXT_RUNNERS by method name).
TEXT_RUNNER_CLASSES = frozenset({"code.InteractiveInterpreter", "code.InteractiveConsole", "cProfile.Profile", "profile.Profile",
                                 "trace.Trace", "bdb.Bdb", "pdb.Pdb", "timeit.Timer"})
#: Import-system classes a program derives its own loader or finder from.
LOADER_BASES = ("importlib.abc.", "importlib.machinery.", "importlib._bootstrap", "zipimport.")
#: Where a finder or path hook is installed.
IMPORT_HOOKS = frozenset({"sys.meta_path", "sys.path_hooks"})
#: Calls that load native code or jump into it (ctypes data types alone are harmless).
NATIVE_LOADERS = ("ctypes.CDLL", "ctypes.cdll", "ctypes.PyDLL", "ctypes.pydll", "ctypes.pythonapi", "ctypes.WinDLL", "ctypes.windll",
                  "ctypes.OleDLL", "ctypes.oledll", "ctypes.LibraryLoader", "ctypes.CFUNCTYPE", "ctypes.PYFUNCTYPE",
                  "ctypes.WINFUNCTYPE", "ctypes.cast", "ctypes.memmove", "ctypes.memset", "ctypes.string_at", "ctypes.wstring_at",
                  "ctypes.util.find_library", "_ctypes.", "cffi.", "ctypes.util.")
#: Calls that call what they are given (now or later): handing them an opaque value calls it.
CALLBACK_TAKERS = frozenset({"builtins.map", "builtins.filter", "functools.reduce", "builtins.sorted", "builtins.min", "builtins.max",
                             "builtins.iter", "builtins.property", "builtins.staticmethod", "builtins.classmethod", "builtins.setattr",
                             "functools.partial", "functools.wraps", "functools.lru_cache", "functools.cache", "functools.cached_property",
                             "atexit.register", "signal.signal", "sys.settrace", "sys.setprofile", "threading.settrace",
                             "threading.setprofile", "threading.Thread", "threading.Timer", "multiprocessing.Process", "weakref.finalize",
                             "operator.call", "asyncio.to_thread", "itertools.starmap", "itertools.accumulate", "itertools.takewhile",
                             "itertools.dropwhile", "itertools.filterfalse", "itertools.groupby", "contextlib.contextmanager",
                             "types.MethodType", "copyreg.pickle", "sys.excepthook", "sys.addaudithook", "builtins.vars"})
CALLBACK_METHODS = frozenset({"map", "imap", "imap_unordered", "starmap", "submit", "apply", "apply_async", "call_soon",
                              "call_later", "call_at", "call_soon_threadsafe", "run_in_executor", "add_done_callback", "register",
                              "callback", "push", "create_function", "create_aggregate", "create_collation", "set_authorizer",
                              "set_progress_handler", "set_trace_callback", "register_function", "register_instance", "sort",
                              "connect", "after", "after_idle", "add_reader", "add_writer", "add_signal_handler", "enter",
                              "enterabs", "setdefault", "__setitem__"})
#: Channels that unpickle what they receive (``conn.recv()``): each received object may run any code.
UNPICKLING_CHANNELS = ("multiprocessing.connection.", "multiprocessing.Pipe", "multiprocessing.managers.")
#: Pickle globals that only rebuild data.
SAFE_PICKLE_GLOBALS = ("builtins.set", "builtins.frozenset", "builtins.complex", "builtins.bytearray", "builtins.slice",
                       "builtins.range", "collections.", "datetime.", "decimal.Decimal", "fractions.Fraction", "copyreg._reconstructor",
                       "builtins.object", "__main__.", "uuid.UUID", "pathlib.PurePosixPath", "_codecs.encode", "codecs.encode",
                       "numpy.", "array.array")


#: Functions whose call does what the analysis must see (run, delete, kill, import, load): handed to
#: another call, they are called where the analysis does not follow.
CAPABILITIES = (rules.COMMANDS | rules.CODE_EXEC | rules.FORKS | rules.DELETES | rules.KILLS | rules.SET_IDS | frozenset({
    "os.truncate", "os.rename", "os.replace", "shutil.move", "shutil.rmtree", "shutil.copy", "shutil.copyfile", "os.chmod",
    "os.chown", "os.dup2", "os.symlink", "os.link", "builtins.__import__", "importlib.import_module", "builtins.open",
    "socket.socket", "socket.create_connection", "pty.spawn"}))
#: Calls that take a function as a value without calling it where the analysis loses it: the
#: analysis models them (a partial is judged where it is called) or they only look at it.
NOT_HANDING = frozenset({"functools.partial", "builtins.print", "builtins.repr", "builtins.str", "builtins.getattr", "builtins.hasattr",
                         "builtins.callable", "builtins.isinstance", "builtins.id", "builtins.type", "builtins.dict", "builtins.list",
                         "builtins.tuple", "inspect.signature", "inspect.getsource", "inspect.getdoc", "builtins.help",
                         "functools.wraps", "functools.update_wrapper"}) | rules.MOCK_PATCHERS


def texts_in(values: list[Value], depth: int = 0) -> list[str]:
    """Every string in values, through sequences and alternatives (argv lists, spawn file actions)."""
    out: list[str] = []
    for value in values[:64]:
        if isinstance(value, (Seq, Alternatives)) and depth < 3:
            out.extend(texts_in(list(value.items if isinstance(value, Seq) else value.options), depth + 1))
        elif isinstance(value, Instance) and value.path:
            out.append(value.path)
        else:
            out.extend(strings_of(value))
    return out


def known_name(value: Value | None) -> str | None:
    """The name a value is, when the analysis knows it whole."""
    if isinstance(value, Str) and PLACEHOLDER not in value.value:
        return value.value
    return None


def is_opaque(value: Value | None) -> Opaque | None:
    """The opaque value a value is or may be (one of its alternatives)."""
    if isinstance(value, Opaque):
        return value
    if isinstance(value, Alternatives):
        return next((option for option in value.options if isinstance(option, Opaque)), None)
    if isinstance(value, Partial):
        return is_opaque(value.func)
    return None


def _own_class(value: Value) -> bool:
    """A value that is the program's own class (or function): of every option the analysis knows, each is
    the program's own (a parameter defaulting to its base class, called again with what that walk found)."""
    options = value.options if isinstance(value, Alternatives) else (value,)
    own = [o for o in options if isinstance(o, Ref) and o.recv is None and o.qual.startswith("<local>.")]
    return bool(own) and all(o in own or type(o) is Unknown for o in options)


def pickle_globals(data: bytes) -> list[str] | None:
    """The globals a pickle names (``module.name``), read from its opcodes without loading it; None
    when the bytes are not a pickle the disassembler can read."""
    found: list[str] = []
    strings: list[str] = []
    try:
        for opcode, argument, _ in pickletools.genops(data):
            if opcode.name in ("GLOBAL", "INST") and isinstance(argument, str):
                found.append(argument.replace(" ", ".", 1))
            elif opcode.name == "STACK_GLOBAL" and len(strings) >= 2:
                found.append(f"{strings[-2]}.{strings[-1]}")
            elif isinstance(argument, str):
                strings.append(argument)
            if len(found) > 256:
                break
    except Exception:  # noqa: BLE001 - any malformed pickle: the disassembler could not read it
        return None
    return found


class OpacityResolver:
    """The evaluator's part that says which values are opaque and which reachable sets are harmless
    (the module's docstring states the rule); the sinks are OpacityJudges' (opacity_judges.py)."""

    def __init__(self, state: AnalysisState) -> None:
        self.state = state

    # --- harmless or not: what a base may reach --------------------------------------------------

    def _reach(self, value: Value, depth: int = 0) -> str | None:
        """What a lookup on ``value`` may reach, in words; None when the reachable set is proven harmless."""
        if depth > 4:
            return "an object the analysis cannot identify"
        if isinstance(value, Opaque):
            return value.what
        if isinstance(value, (Str, Bytes, Num)) or (isinstance(value, Seq) and not isinstance(value, DictSeq)):
            return None
        if isinstance(value, DictSeq):
            return None
        if isinstance(value, Alternatives):
            if not value.options:
                return "an object the analysis cannot identify"
            for option in value.options:
                found = self._reach(option, depth + 1)
                if found is not None:
                    return found
            return None
        if isinstance(value, Instance):
            if value.kind.startswith("<local>."):
                return self._class_reach(value.kind.split(".", 1)[1])
            if value.kind.startswith(DATA_KINDS):
                return None
            return f"a `{value.kind}` object"
        if isinstance(value, Ref):
            qual = value.qual
            if value.recv is not None:
                return self._reach(value.recv, depth + 1) if not qual.startswith("<local>.") else None
            if qual.startswith("<local>."):
                name = qual.split(".", 1)[1]
                return self._class_reach(name) if name in self.state.classes else None
            if qual == "<globals>":
                return "the program's global names (its modules and the builtins)"
            if qual == "builtins":
                return "the builtins (exec, eval, open, __import__)"
            if qual.split(".")[0] in HARMLESS_MODULES or qual in DATA_BASES or qual in DATA_TYPES:
                return None
            return f"`{qual}`"
        if isinstance(value, Code):
            return "a code object"
        if isinstance(value, Partial):
            return self._reach(value.func, depth + 1)
        if LOOKED_UP in value.flags:
            return "an attribute itself looked up by a name chosen at run time"
        return "an object the analysis cannot identify"

    def _class_reach(self, name: str, depth: int = 0) -> str | None:
        """A class the program defined reaches its members, which are its own code (judged where they
        are defined), and what its bases and attributes hold."""
        if depth > 8:
            return None
        for base in self.state.class_bases.get(name, ()):
            if isinstance(base, Ref) and base.qual.startswith("<local>."):
                found = self._class_reach(base.qual.split(".", 1)[1], depth + 1)
                if found is not None:
                    return found
            elif isinstance(base, Ref) and (base.qual in DATA_BASES or base.qual.split(".")[0] in HARMLESS_MODULES):
                continue
            elif isinstance(base, Ref) and base.qual.startswith("typing.") or (isinstance(base, Ref) and base.qual.startswith("abc.")):
                continue
            else:
                shown = base.qual if isinstance(base, Ref) else "a base the analysis cannot identify"
                return f"the members of `{name}`, which inherits from `{shown}`"
        for attribute in self.state.class_members.get(name, ()):
            held = self.state.env.get(attribute)
            if held is not None and self._holds_capability(held):
                return f"the attribute `{attribute}` of `{name}`"
        for attribute, held in self.state.attrs.items():
            if self._holds_capability(held):
                return f"the attribute `{attribute}` its objects hold"
        return None

    def _holds_capability(self, value: Value) -> bool:
        """An attribute that holds a module, a dangerous function or something opaque."""
        options = value.options if isinstance(value, Alternatives) else (value,)
        for option in options:
            if isinstance(option, Opaque):
                return True
            if isinstance(option, Ref) and option.recv is None and not option.qual.startswith("<local>.") and \
                    option.qual.split(".")[0] not in HARMLESS_MODULES and option.qual.split(".")[0] in rules.DANGEROUS_MODULES | {"pathlib"}:
                return True
        return False

    # --- opaque values -----------------------------------------------------------------------------

    def opaque(self, what: str) -> Opaque:
        self.state.opaque_seen = True  # the walker learns once more, with every caller known (walker.run)
        return Opaque(NO_FLAGS, what)

    def lookup(self, base: Value, name: Value | None, how: str) -> Value:
        """A lookup on ``base`` by a name not known at assessment."""
        if name is not None and "user" in name.flags and not name.flags & {"built", "encoded", "opaque", "net"}:
            return Unknown(frozenset({"user"}))  # the name whoever runs the program gives: their choice, not hidden
        reach = self._reach(base)
        if reach is None:
            return Unknown(frozenset({LOOKED_UP}))
        return self.opaque(f"an attribute of {reach} chosen at run time ({how})")

    def walk_attribute(self, base: Value, attr: str) -> Value | None:
        """``base.attr`` for an attribute that walks into the interpreter's structures: resolved where
        the walk stays in the program (its own classes, functions and frame), else opaque; None for
        an attribute that is not a walk."""
        if attr not in WALKS:
            return None
        own = _own_class(base)
        own_frame = isinstance(base, Instance) and base.kind == "frame:own"
        if attr == "__subclasses__":
            if own:
                return None  # the program's own classes
            return self.opaque("a class picked from every class loaded in the interpreter (__subclasses__)")
        if attr in ("__globals__", "f_globals") and (own or own_frame):
            return Ref(frozenset({"indirect"}), "<globals>")
        if attr == "f_builtins" and own_frame:
            return Ref(frozenset({"indirect"}), "builtins")
        if attr in ("f_locals", "__closure__", "__loader__", "__spec__") and (own or own_frame):
            return None
        if attr in ("f_back", "tb_frame", "gi_frame", "cr_frame", "ag_frame"):
            return Instance(NO_FLAGS, "frame")
        return self.opaque(f"what `{attr}` of an object the analysis cannot identify holds (the globals or frames of other code)")

    def opaque_call(self, qualname: str, args: list[Value], kwargs: dict[str, Value]) -> Value | None:
        """What a call that resolves a name, finds objects or runs text gives back, when that is opaque
        (or resolved); None: not such a call."""
        if qualname in USER_INPUTS:
            return Unknown(frozenset({"user"}))
        if qualname in NAME_RESOLVERS and args:
            name = known_name(args[0])
            if name is not None and "#" in qualname:
                return None  # a field of the object handed with it, named in full: what it reaches is looked up as usual
            if name is not None and qualname != "importlib.util.resolve_name":
                return Ref(frozenset({"indirect"}) | (frozenset({"obfname"}) if args[0].flags & {"built", "encoded"} else NO_FLAGS),
                           canonical(name.replace(":", ".")))
            return self.opaque(f"an object named at run time ({qualname})")
        if qualname in FINDERS:
            return self.opaque(f"objects the program did not name ({qualname})")
        if qualname in OWN_FRAMES:
            own = not args or (isinstance(args[0], Num) and args[0].value == 0)
            return Instance(NO_FLAGS, "frame:own" if own else "frame")
        if qualname in TEXT_RUNNER_CLASSES or qualname in RESOLVER_CLASSES:
            return Instance(NO_FLAGS, qualname)  # an object whose methods run text or resolve names
        if qualname in ("builtins.eval",) and args and not known_name(args[0]):
            return self.opaque("what text evaluated at run time gives back")
        return None
