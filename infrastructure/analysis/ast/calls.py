"""The evaluator's knowledge of calls: what a known function, method or local function returns.
"""

from __future__ import annotations

import ast
import json
import string

from . import rules
from .commands import PLACEHOLDER, normalise_path, outside_working_dir, secret_label
from .folding import ConstantFolder
from .opacity import LOOKED_UP, OpacityResolver, is_opaque, known_name
from .roles import Evaluates
from .state import AnalysisState
from .values import (
    MAX_ALTERNATIVES,
    NO_FLAGS,
    UNKNOWN,
    Alternatives,
    Bytes,
    Code,
    DictSeq,
    Instance,
    Num,
    Partial,
    Ref,
    Seq,
    Str,
    Unknown,
    Value,
    alternatives,
    canonical,
    command_words,
    flags_of,
    foreign_process,
    iterate,
    join_path,
    own_process,
    strings_of,
    wildcards_unknown,
    with_flags,
)

_PARSERS = frozenset({"json.load", "json.loads", "yaml.safe_load", "yaml.load", "tomllib.load", "tomllib.loads", "toml.load", "toml.loads",
                      "configparser.ConfigParser#get", "configparser.ConfigParser#getint", "dotenv.dotenv_values"})


_MAPPED_OVER_ALTERNATIVES = frozenset({
    "os.path.join", "posixpath.join", "os.path.expanduser", "os.path.expandvars", "os.path.abspath", "os.path.realpath",
    "os.path.normpath", "os.path.dirname", "os.fspath", "pathlib.Path", "pathlib.PurePath", "glob.glob", "glob.iglob",
    "builtins.getattr", "builtins.__import__", "importlib.import_module",
})


def _from_python(value: object, flags: frozenset[str], depth: int = 0) -> Value:
    """A parsed document as the evaluator's values."""
    if depth > 16:
        return Unknown(flags)
    if isinstance(value, str):
        return Str(flags, value)
    if isinstance(value, (int, float, bool)) or value is None:
        return Num(flags, value)
    if isinstance(value, list):
        return Seq(flags, tuple(_from_python(item, flags, depth + 1) for item in value[:1024]))
    if isinstance(value, dict):
        pairs = list(value.items())[:1024]
        return DictSeq(flags, tuple(_from_python(v, flags, depth + 1) for _, v in pairs), tuple(Str(flags, str(k)) for k, _ in pairs))
    return Unknown(flags)


class CallEvaluator:
    """What calling a function or method returns: known library functions folded (decoders, path
    functions, string methods), instances of the classes the rules know, local functions' returns."""

    def __init__(self, state: AnalysisState, evaluator: Evaluates, folder: ConstantFolder, resolver: OpacityResolver) -> None:
        self.state = state
        self.evaluator = evaluator
        self.folder = folder
        self.resolver = resolver

    def env_var(self, name: str) -> Value:
        if name in ("HOME", "USERPROFILE"):
            return Str(NO_FLAGS, "~")
        return Unknown(frozenset({"env-secret"}) if rules.SECRETISH_ENV.search(name) else frozenset({"user"}))  # set by whoever runs it

    def call(self, func: Value, args: list[Value], kwargs: dict[str, Value], spread: list[Value]) -> Value:
        flags = (flags_of(args) | flags_of(kwargs.values()) | flags_of(spread)) - {"sockfd", "obfname", "indirect", "partial", LOOKED_UP}
        if any(isinstance(a, Ref) and a.qual == "os.environ" for a in [*args, *kwargs.values(), *spread]):
            flags = flags | {"secret"}
        opaque = is_opaque(func)
        if opaque is not None:  # what an opaque callee returns is opaque too
            return self.resolver.opaque(opaque.what)
        if isinstance(func, Alternatives) and func.options and len(func.options) <= 8 and all(isinstance(o, Ref) for o in func.options):
            return alternatives(func.flags, tuple(self.call(option, args, kwargs, spread) for option in func.options))
        if not isinstance(func, Ref):
            return Unknown(flags | (func.flags - {"sockfd", "obfname", "indirect", LOOKED_UP}))
        qualname = func.qual
        recv = func.recv
        if qualname in _MAPPED_OVER_ALTERNATIVES:  # os.path.join(base, name) for each name a loop gives, etc.
            for index, arg in enumerate(args):
                if isinstance(arg, Alternatives) and 0 < len(arg.options) <= 16:
                    return alternatives(arg.flags, tuple(self.call(func, [*args[:index], option, *args[index + 1:]], kwargs, spread)
                                                 for option in arg.options))
        first = args[0] if args else kwargs.get("s") or kwargs.get("string") or kwargs.get("data") or kwargs.get("name")
        found = self._call_by_name(qualname, recv, first, args, kwargs, flags)
        if found is not None:
            return found
        # -- pure transformations of constants
        if recv is not None and isinstance(recv, (Str, Bytes, Seq)):
            return self.folder.method(recv, qualname.split("#", 1)[1], args, kwargs, flags)
        try:
            pure = self.folder.fold_pure_call(qualname, args, kwargs, flags)
        except Exception:  # noqa: BLE001 - a decoder that fails on its input still marks what it would decode
            pure = Unknown(flags | {"encoded"}) if qualname in rules.DECODERS or qualname == "builtins.chr" else Unknown(flags)
        if pure is not None:
            return pure
        found = self._network_or_environment_call(qualname, recv, first, args, kwargs, flags)
        if found is not None:
            return found
        found = self._path_or_file_call(qualname, recv, first, args, kwargs, flags)
        if found is not None:
            return found
        found = self._process_or_system_call(qualname, recv, first, args, kwargs, flags)
        if found is not None:
            return found
        found = self._code_or_document_call(qualname, recv, first, args, kwargs, flags)
        if found is not None:
            return found
        if qualname.startswith("<local>.") and qualname.split(".", 1)[1] in self.state.classes:
            return Instance(flags, qualname)  # an object of a class the program defines
        callee = self.state.local_callee(qualname)
        if callee is not None and callee not in self.state.classes:
            returned = tuple(self.state.returns.get(callee, {}).values())[:MAX_ALTERNATIVES]
            if returned:  # what the function returns, marked as having crossed a function
                marks = (flags_of(returned) - {"obfname", "indirect", "partial"}) | {"param"}
                return returned[0] if len(returned) == 1 and not (marks - returned[0].flags) else Alternatives(marks, returned)
        if qualname.startswith("<local>."):
            return Unknown(flags)
        return Unknown(flags | (func.flags - {"sockfd", "obfname", "indirect", "partial"}))

    def _call_by_name(self, qualname: str, recv: Value | None, first: Value | None, args: list[Value], kwargs: dict[str, Value], flags: frozenset[str]) -> Value | None:
        """Imports and attribute lookups by name: __import__, import_module, getattr, partial, globals()."""
        # -- imports and attribute lookups by name
        if qualname in ("builtins.__import__", "importlib.import_module") and isinstance(first, Str):
            name = first.value if (qualname == "importlib.import_module" or len(args) > 3 or "fromlist" in kwargs) else first.value.split(".")[0]
            marks = frozenset({"indirect"}) | (frozenset({"obfname"}) if first.flags & {"built", "encoded", "opaque"} else NO_FLAGS)
            return Ref(marks, canonical(name))
        if qualname == "builtins.getattr" and len(args) >= 2 and known_name(args[1]) is None and not (
                isinstance(args[1], Str) and isinstance(args[0], Ref) and args[0].recv is None and not args[0].qual.startswith("<")):
            return self.resolver.lookup(args[0], args[1], "getattr")  # by a name not known (a module's assembled name: obfuscated-call)
        if qualname.endswith(("#__getattribute__", "#__getattr__", ".__getattribute__", ".__getattr__")):
            if len(args) >= 2:  # object.__getattribute__(x, name), type(x).__getattribute__(x, name)
                base, name = args[0], args[1]
            else:  # x.__getattribute__(name)
                base = recv if recv is not None else Ref(NO_FLAGS, qualname.rsplit(".", 1)[0].split("#")[0])
                name = first
            known = known_name(name)
            return self.evaluator.attribute(base, known) if known is not None else self.resolver.lookup(base, name, "__getattribute__")
        if qualname in ("operator.attrgetter", "operator.methodcaller") and args:
            return Ref(NO_FLAGS, "<" + qualname.split(".")[1] + ">", Seq(NO_FLAGS, tuple(args)))
        if qualname in ("<attrgetter>", "<methodcaller>") and isinstance(recv, Seq) and recv.items and args:
            target = self.by_name(args[0], recv.items[0], qualname.strip("<>"))
            if qualname == "<methodcaller>":
                return self.call(target, list(recv.items[1:]), {}, [])
            return target
        if qualname == "functools.reduce" and len(args) >= 2:
            items = iterate(args[1])
            if items is None or len(items) > 64:
                if isinstance(args[0], Ref) and args[0].qual == "builtins.getattr":
                    return self.resolver.lookup(args[2] if len(args) > 2 else UNKNOWN, None, "reduce(getattr, ...)")
                return None
            accumulated = args[2] if len(args) > 2 else (items.pop(0) if items else UNKNOWN)
            for item in items:
                accumulated = self.call(args[0], [accumulated, item], {}, [])
            return accumulated
        if qualname in ("builtins.__import__", "importlib.import_module", "importlib.__import__") and first is not None and not isinstance(first, (Str, Alternatives)):
            if "user" in first.flags and not first.flags & {"built", "encoded", "opaque", "net"}:
                return Unknown(frozenset({"user"}))  # a plugin the user names: dynamic-import (MEDIUM), their choice
            return self.resolver.opaque(f"a module named at run time ({qualname.rsplit('.', 1)[-1]})")
        found = self.resolver.opaque_call(qualname, args, kwargs)
        if found is not None:
            return found
        if qualname == "builtins.getattr" and len(args) >= 2 and isinstance(args[1], Str):
            target = self.evaluator.attribute(args[0], args[1].value)
            marks = frozenset({"indirect"}) | (frozenset({"obfname"}) if args[1].flags & {"built", "encoded", "opaque"} else NO_FLAGS)
            return with_flags(target, marks)
        if qualname in ("builtins.vars",) and args:
            return args[0]
        if qualname == "functools.partial" and args and isinstance(args[0], (Ref, Alternatives)):
            return Partial(NO_FLAGS, args[0], tuple(args[1:]))
        if qualname in ("builtins.str", "os.fspath", "os.path.abspath", "os.path.realpath") and isinstance(first, Instance) and first.path is not None:
            return Str(first.flags, first.path)
        if qualname in ("builtins.globals", "builtins.locals"):
            return Ref(NO_FLAGS, "<globals>")
        return None

    def by_name(self, base: Value, name: Value, how: str) -> Value:
        """``base.name`` for a name given as a value (attrgetter's dotted names too)."""
        known = known_name(name)
        if known is None:
            return self.resolver.lookup(base, name, how)
        value = base
        for part in known.split(".")[:8]:
            value = self.evaluator.attribute(value, part)
        return with_flags(value, frozenset({"indirect"}) | (frozenset({"obfname"}) if name.flags & {"built", "encoded", "opaque"} else NO_FLAGS))

    def _network_or_environment_call(self, qualname: str, recv: Value | None, first: Value | None, args: list[Value], kwargs: dict[str, Value], flags: frozenset[str]) -> Value | None:
        """Sockets, requests and HTTP clients (what comes back is from the network), and the environment."""
        # -- objects we follow
        if qualname in rules.SOCKET_MAKERS:
            return Instance(frozenset({"sockfd"}), "socket.socket")
        if qualname == "socket.socket#accept":
            return Instance(frozenset({"sockfd"}), "tuple:socket.accept")
        if qualname.startswith("socket.socket#"):
            method = qualname.split("#", 1)[1].split(".")[0]
            if method in ("fileno", "dup", "detach", "makefile"):
                return Instance(frozenset({"sockfd"} | ({"net"} if method == "makefile" else set())), "socket.socket")
            if method in rules.SOCKET_RECV_METHODS:
                return Unknown(frozenset({"net"}) | flags)
            return Unknown(flags)
        if qualname in rules.REQUEST_BUILDERS:  # what the request carries, not how it logs in (headers, auth)
            carried = [*args[:2], *[v for k, v in kwargs.items() if k not in ("headers", "auth", "cookies")]]
            return Instance((flags_of(carried) - {"sockfd", "obfname", "indirect", "partial"}) | {"net"}, qualname)
        if qualname.startswith(rules.HTTP_FETCH_PREFIXES) and "#" not in qualname or qualname.split("#")[0].startswith(("requests.Session", "httpx.Client", "aiohttp.ClientSession")):
            return Instance(flags | {"net"}, qualname)
        if qualname.startswith(rules.NETWORK_PREFIXES) and "#" not in qualname:
            return Instance(flags, qualname)
        if qualname in ("os.getenv", "os.environ.get", "os.environ.pop", "os.environ.setdefault") and isinstance(first, Str):
            default = args[1] if len(args) > 1 else kwargs.get("default")
            if default is not None and not (isinstance(default, Num) and default.value is None):
                variable = self.env_var(first.value)
                return Alternatives(variable.flags | default.flags, (variable, default))  # the variable, or the default when unset
            return self.env_var(first.value)
        if qualname in ("os.environ.copy", "os.environ.items", "os.environ.values", "os.environ.keys", "os.environ.__str__"):
            return Unknown(frozenset({"secret"}))  # the whole environment
        return None

    def _path_or_file_call(self, qualname: str, recv: Value | None, first: Value | None, args: list[Value], kwargs: dict[str, Value], flags: frozenset[str]) -> Value | None:
        """pathlib paths and their methods, and the files the program opens."""
        if qualname in ("pathlib.Path", "pathlib.PurePath"):
            parts = [a.value if isinstance(a, Str) else a.path if isinstance(a, Instance) and a.path else PLACEHOLDER for a in args] or ["."]
            return Instance(flags, "pathlib.Path", join_path(parts) or ".")
        if qualname == "pathlib.Path.home" or qualname == "pathlib.Path#home":
            return Instance(NO_FLAGS, "pathlib.Path", "~")
        if qualname in ("pathlib.Path.cwd", "os.getcwd"):
            return Instance(NO_FLAGS, "pathlib.Path", ".") if qualname.startswith("pathlib") else Str(NO_FLAGS, ".")
        if qualname.startswith("pathlib.Path#") and isinstance(recv, Instance):
            method = qualname.split("#", 1)[1]
            if method in ("expanduser", "resolve", "absolute", "with_name", "with_suffix", "joinpath"):
                if method == "joinpath":
                    joined: Value = recv
                    for part in args or [Str(NO_FLAGS, "")]:
                        joined = self.evaluator.binop(ast.Div(), joined, part)
                    return joined
                return recv
            if method in ("read_text", "read_bytes") and recv.path:
                own = frozenset({"ownpid"}) if normalise_path(recv.path) in self.state.own_pid_files else NO_FLAGS
                return Unknown(flags | recv.flags | self._file_marks(recv.path) | own)
            if method == "open":
                return Instance(recv.flags | self._file_marks(recv.path), "file", recv.path)
            if method in ("rglob", "glob", "iterdir", "walk"):
                pattern = wildcards_unknown(args[0].value) if args and isinstance(args[0], Str) and method != "walk" else PLACEHOLDER
                deep = f"{PLACEHOLDER}/" if method == "rglob" else ""
                return Instance(recv.flags, "pathlib.Path#iter", f"{(recv.path or PLACEHOLDER).rstrip('/')}/{deep}{pattern}")
            return Unknown(recv.flags | flags)
        if qualname in rules.FILE_OPENERS:
            paths = strings_of(first)[:16] if first is not None else []
            marks = NO_FLAGS
            for path in paths:
                marks = marks | self._file_marks(path)
            return Instance(flags | marks, "file", paths[0] if paths else None)
        if qualname.startswith("file#"):
            own = isinstance(recv, Instance) and recv.path is not None and normalise_path(recv.path) in self.state.own_pid_files
            return Unknown((recv.flags if recv else NO_FLAGS) | flags | (frozenset({"ownpid"}) if own else NO_FLAGS))
        return None

    def _process_or_system_call(self, qualname: str, recv: Value | None, first: Value | None, args: list[Value], kwargs: dict[str, Value], flags: frozenset[str]) -> Value | None:
        """Processes (the program's own or found), commands, site paths, temporary folders, argparse,
        user databases."""
        if qualname in ("sys.argv", "sys.executable"):
            return Unknown(frozenset({"self"}))
        if qualname == "multiprocessing.Process" or qualname == "threading.Thread":
            return Instance(flags, qualname)
        if qualname in rules.COMMANDS and any(secret_label(text, self.state.paths) for value in args[:1] for text in command_words(value)):
            return Unknown(flags | {"secret"})
        if qualname in rules.CHILD_MAKERS:
            return Instance(NO_FLAGS, qualname)  # the program's own child: its .pid is the program's to signal
        if qualname in rules.SITE_PATHS:  # where an interpreter's packages and start-up hooks live
            value = rules.SITE_PATHS[qualname]
            if isinstance(value, tuple):
                return Seq(NO_FLAGS, tuple(Str(NO_FLAGS, text) for text in value))
            if isinstance(value, dict):
                return DictSeq(NO_FLAGS, tuple(Str(NO_FLAGS, text) for text in value.values()),
                               tuple(Str(NO_FLAGS, key) for key in value))
            return Str(NO_FLAGS, value)
        if qualname in ("tempfile.mkdtemp", "tempfile.gettempdir", "tempfile.mktemp", "tempfile.mkstemp"):
            return Str(NO_FLAGS, "/tmp/" + PLACEHOLDER) if qualname != "tempfile.mkstemp" else Seq(NO_FLAGS, (UNKNOWN, Str(NO_FLAGS, "/tmp/" + PLACEHOLDER)))
        if qualname in ("argparse.ArgumentParser", "configparser.ConfigParser", "configparser.RawConfigParser", "configparser.SafeConfigParser"):
            return Instance(NO_FLAGS, qualname)
        if qualname in ("argparse.ArgumentParser#parse_args", "argparse.ArgumentParser#parse_known_args"):
            namespace = Instance(frozenset({"user"}), "argparse.Namespace")
            return namespace if qualname.endswith("parse_args") else Seq(NO_FLAGS, (namespace, UNKNOWN))
        if qualname in ("pwd.getpwnam", "pwd.getpwuid", "pwd.getpwall", "spwd.getspall", "spwd.getspnam"):
            marks = self._file_marks(rules.ACCOUNT_DATABASES.get(qualname))  # what the call reads is that file's contents
            return Instance(marks, "pwd.all" if qualname.endswith("all") else "pwd.struct_passwd")
        if qualname in ("os.walk", "os.fwalk", "os.scandir") and first is not None and strings_of(first):
            return Instance(first.flags, qualname, strings_of(first)[0])
        if qualname in ("os.getpgid", "os.getsid") and first is not None and not (isinstance(first, Num) and first.value == 0):
            return Unknown(first.flags & {"ownpid", "foreignproc"})  # the group of whatever process it names
        if qualname in rules.OWN_PIDS:
            return Unknown(frozenset({"ownpid"}))
        if qualname == "psutil.process_iter":
            return Instance(frozenset({"foreignproc"}), "psutil.process_iter")
        if qualname in ("psutil.pids", "psutil.win_service_iter"):
            return Unknown(frozenset({"foreignproc"}))
        if qualname == "psutil.Process":
            own = first is None or (own_process(first) and not foreign_process(first))
            return Instance(NO_FLAGS, "psutil.Process:own") if own else Instance(frozenset({"foreignproc"}), "psutil.Process")
        if qualname.startswith("psutil.Process:own#") and qualname.endswith(("#children", "#parent")):
            return Instance(NO_FLAGS, "psutil.Process:own#children")
        return None

    def _code_or_document_call(self, qualname: str, recv: Value | None, first: Value | None, args: list[Value], kwargs: dict[str, Value],
                               flags: frozenset[str]) -> Value | None:
        """Code objects (compile, marshal, ast, types), pickles, templates and documents parsed from text
        (json, shlex, configuration)."""
        if qualname == "builtins.compile" and first is not None:
            return self._code_value(first, flags)
        if qualname.startswith("ast.") and qualname.count(".") == 1 and qualname[4:5].isupper():
            return Code(flags | {"tree"}, None)  # a node of a syntax tree the program builds (what it may do: execution_judges)
        if qualname in ("marshal.loads", "marshal.load"):
            if first is not None and (isinstance(first, Bytes) or first.flags & {"encoded"}):
                return Code(flags | {"encoded", "marshal"}, None)  # bytecode the program carries: what it runs is hidden
            if first is not None and first.flags & {"built", "opaque"}:
                return Code(flags | {"marshal"}, None)  # bytecode it made at run time: unseen (opacity), not a payload it carries
            return Code(flags, None)  # bytecode it stored and reads back: unseen code, not a payload it hides
        if qualname in ("ast.parse", "ast.fix_missing_locations", "ast.copy_location", "ast.increment_lineno") and first is not None:
            return first if isinstance(first, (Str, Bytes, Alternatives, Code)) else Code(flags, None)  # the same code, as a tree
        if qualname in ("types.FunctionType", "types.CodeType", "types.LambdaType") and args:
            return args[0] if isinstance(args[0], Code) else Code(flags, None)
        if qualname in ("pickle.loads", "pickle.load", "dill.loads"):
            return Unknown(flags | {"encoded"})
        if qualname == "multiprocessing.get_context":
            return Ref(NO_FLAGS, "multiprocessing")  # a context has the module's API (Process, Pool...)
        if qualname == "builtins.dict" and not args and kwargs:
            return DictSeq(NO_FLAGS, tuple(kwargs.values()), tuple(Str(NO_FLAGS, key) for key in kwargs))
        if qualname == "string.Template" and isinstance(first, Str):
            return Instance(first.flags, "string.Template", first.value)  # the template's text, kept as its "path"
        if qualname in ("string.Template#substitute", "string.Template#safe_substitute") and isinstance(recv, Instance) and recv.path is not None:
            mapping = dict(kwargs)
            if args and isinstance(args[0], DictSeq):
                mapping = {**{k.value: v for k, v in zip(args[0].keys, args[0].items) if isinstance(k, Str)}, **mapping}
            known = {key: (value.value if isinstance(value, (Str, Num)) else value.path if isinstance(value, Instance) and value.path else PLACEHOLDER)
                     for key, value in mapping.items()}
            text = string.Template(recv.path).safe_substitute({key: str(value) for key, value in known.items()})
            return Str(recv.flags | flags | {"built"} | ({"partial"} if PLACEHOLDER in text else NO_FLAGS), text)
        if qualname == "shutil.which" and first is not None:
            return first  # where the named program is: it names the same program
        if qualname == "shlex.split" and isinstance(first, Str):
            return Seq(first.flags, tuple(Str(first.flags, word) for word in first.value.split()[:256]))
        if qualname in ("json.loads",) and isinstance(first, (Str, Bytes)) and len(first.value) < 65536:
            try:  # a document the program carries: what it holds is known (paths, commands, names)
                return _from_python(json.loads(first.value), first.flags)
            except (ValueError, RecursionError):
                pass
        if qualname in _PARSERS:  # values parsed out of a configuration file (a URL, a user name) are not the file
            return Unknown(flags - {"sysfile", "sliced"})
        return None

    def _file_marks(self, path: str | None) -> frozenset[str]:
        """secret: the file holds credentials; sysfile: it is outside the working directory and not
        rated harmless (its contents sent away are a system file leaving the machine)."""
        if path is None or self.state.paths is None:
            return NO_FLAGS
        path = self.state.in_cwd(path)
        if self.state.paths.secret(path):
            return frozenset({"secret"})
        if self.state.paths.outside(path):
            return frozenset({"sysfile"})
        if path.endswith(".pid") and not outside_working_dir(path):
            return frozenset({"cwdpid"})  # a pid file of the program's own project (its service, a worker)
        return NO_FLAGS

    @staticmethod
    def _code_value(value: Value, flags: frozenset[str]) -> Value:
        if isinstance(value, Alternatives) and value.options and len(value.options) <= 16:
            return alternatives(value.flags | flags, tuple(CallEvaluator._code_value(option, flags) for option in value.options))
        if isinstance(value, Str):
            return Code(value.flags | flags, value.value)
        if isinstance(value, Bytes):
            return Code(value.flags | flags, value.value.decode("utf-8", "replace"))
        if isinstance(value, Code):
            return value
        return Code(value.flags | flags, None)
