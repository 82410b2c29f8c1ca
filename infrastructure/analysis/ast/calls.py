"""The evaluator's knowledge of calls: what a known function, method or local function returns.
"""

from __future__ import annotations

import ast
import base64
import binascii
import bz2
import codecs
import lzma
import posixpath
import zlib


from . import rules
from .commands import (
    PLACEHOLDER,
    normalise_path,
    outside_working_dir,
    secret_label,
)
from .values import (
    MAX_ALTERNATIVES,
    MAX_VALUE_CHARS,
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
    join_path,
    strings_of,
    wildcards_unknown,
    with_flags,
)
from .state import AnalysisState


_PARSERS = frozenset({"json.load", "json.loads", "yaml.safe_load", "yaml.load", "tomllib.load", "tomllib.loads", "toml.load", "toml.loads",
                      "configparser.ConfigParser#get", "configparser.ConfigParser#getint", "dotenv.dotenv_values"})


_MAPPED_OVER_ALTERNATIVES = frozenset({
    "os.path.join", "posixpath.join", "os.path.expanduser", "os.path.expandvars", "os.path.abspath", "os.path.realpath",
    "os.path.normpath", "os.path.dirname", "os.fspath", "pathlib.Path", "pathlib.PurePath", "glob.glob", "glob.iglob",
    "builtins.getattr",
})


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


def _codec(value: Value, encoding: str, flags: frozenset[str]) -> Value:
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


class CallEvaluator(AnalysisState):
    """What calling a function or method returns: known library functions folded (decoders, path
    functions, string methods), instances of the classes the rules know, local functions' returns."""

    def _env_var(self, name: str) -> Value:
        if name in ("HOME", "USERPROFILE"):
            return Str(NO_FLAGS, "~")
        return Unknown(frozenset({"env-secret"}) if rules.SECRETISH_ENV.search(name) else NO_FLAGS)

    def _call(self, func: Value, args: list[Value], kwargs: dict[str, Value], spread: list[Value]) -> Value:
        flags = (flags_of(args) | flags_of(kwargs.values()) | flags_of(spread)) - {"sockfd", "obfname", "indirect", "partial"}
        if any(isinstance(a, Ref) and a.qual == "os.environ" for a in [*args, *kwargs.values(), *spread]):
            flags = flags | {"secret"}
        if isinstance(func, Alternatives) and func.options and len(func.options) <= 8 and all(isinstance(o, Ref) for o in func.options):
            return alternatives(func.flags, tuple(self._call(option, args, kwargs, spread) for option in func.options))
        if not isinstance(func, Ref):
            return Unknown(flags | (func.flags - {"sockfd", "obfname", "indirect"}))
        qualname = func.qual
        recv = func.recv
        if qualname in _MAPPED_OVER_ALTERNATIVES:  # os.path.join(base, name) for each name a loop gives, etc.
            for index, arg in enumerate(args):
                if isinstance(arg, Alternatives) and 0 < len(arg.options) <= 16:
                    return alternatives(arg.flags, tuple(self._call(func, [*args[:index], option, *args[index + 1:]], kwargs, spread)
                                                 for option in arg.options))
        a0 = args[0] if args else kwargs.get("s") or kwargs.get("string") or kwargs.get("data") or kwargs.get("name")
        # -- imports and attribute lookups by name
        if qualname in ("builtins.__import__", "importlib.import_module") and isinstance(a0, Str):
            name = a0.value if (qualname == "importlib.import_module" or len(args) > 3 or "fromlist" in kwargs) else a0.value.split(".")[0]
            marks = frozenset({"indirect"}) | (frozenset({"obfname"}) if a0.flags & {"built", "encoded", "opaque"} else NO_FLAGS)
            return Ref(marks, canonical(name))
        if qualname == "builtins.getattr" and len(args) >= 2 and isinstance(args[1], Str):
            target = self._attribute(args[0], args[1].value)
            marks = frozenset({"indirect"}) | (frozenset({"obfname"}) if args[1].flags & {"built", "encoded", "opaque"} else NO_FLAGS)
            return with_flags(target, marks)
        if qualname in ("builtins.vars",) and args:
            return args[0]
        if qualname == "functools.partial" and args and isinstance(args[0], (Ref, Alternatives)):
            return Partial(NO_FLAGS, args[0], tuple(args[1:]))
        if qualname in ("builtins.str", "os.fspath", "os.path.abspath", "os.path.realpath") and isinstance(a0, Instance) and a0.path is not None:
            return Str(a0.flags, a0.path)
        if qualname in ("builtins.globals", "builtins.locals"):
            return Ref(NO_FLAGS, "<globals>")
        if qualname in ("operator.attrgetter", "operator.methodcaller"):
            return UNKNOWN
        # -- pure transformations of constants
        if recv is not None and isinstance(recv, (Str, Bytes, Seq)):
            return self._method(recv, qualname.split("#", 1)[1], args, kwargs, flags)
        try:
            pure = self._fold_pure_call(qualname, args, kwargs, flags)
        except Exception:  # noqa: BLE001 - a decoder that fails on its input still marks what it would decode
            pure = Unknown(flags | {"encoded"}) if qualname in rules.DECODERS or qualname == "builtins.chr" else Unknown(flags)
        if pure is not None:
            return pure
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
        if qualname in ("os.getenv", "os.environ.get", "os.environ.pop", "os.environ.setdefault") and isinstance(a0, Str):
            default = args[1] if len(args) > 1 else kwargs.get("default")
            if default is not None and not (isinstance(default, Num) and default.value is None):
                variable = self._env_var(a0.value)
                return Alternatives(variable.flags | default.flags, (variable, default))  # the variable, or the default when unset
            return self._env_var(a0.value)
        if qualname in ("os.environ.copy", "os.environ.items", "os.environ.values", "os.environ.keys", "os.environ.__str__"):
            return Unknown(frozenset({"secret"}))  # the whole environment
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
                        joined = self._binop(ast.Div(), joined, part)
                    return joined
                return recv
            if method in ("read_text", "read_bytes") and recv.path:
                own = frozenset({"ownpid"}) if normalise_path(recv.path) in self.own_pid_files else NO_FLAGS
                return Unknown(flags | recv.flags | self._file_marks(recv.path) | own)
            if method == "open":
                return Instance(recv.flags | self._file_marks(recv.path), "file", recv.path)
            if method in ("rglob", "glob", "iterdir", "walk"):
                pattern = wildcards_unknown(args[0].value) if args and isinstance(args[0], Str) and method != "walk" else PLACEHOLDER
                deep = f"{PLACEHOLDER}/" if method == "rglob" else ""
                return Instance(recv.flags, "pathlib.Path#iter", f"{(recv.path or PLACEHOLDER).rstrip('/')}/{deep}{pattern}")
            return Unknown(recv.flags | flags)
        if qualname in rules.FILE_OPENERS:
            paths = strings_of(a0)[:16] if a0 is not None else []
            marks = NO_FLAGS
            for path in paths:
                marks = marks | self._file_marks(path)
            return Instance(flags | marks, "file", paths[0] if paths else None)
        if qualname.startswith("file#"):
            own = isinstance(recv, Instance) and recv.path is not None and normalise_path(recv.path) in self.own_pid_files
            return Unknown((recv.flags if recv else NO_FLAGS) | flags | (frozenset({"ownpid"}) if own else NO_FLAGS))
        if qualname in ("sys.argv", "sys.executable"):
            return Unknown(frozenset({"self"}))
        if qualname == "multiprocessing.Process" or qualname == "threading.Thread":
            return Instance(flags, qualname)
        if qualname in rules.COMMANDS and any(secret_label(text, self.paths) for value in args[:1] for text in command_words(value)):
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
        if qualname in ("pwd.getpwnam", "pwd.getpwuid", "pwd.getpwall", "spwd.getspall"):
            return Instance(NO_FLAGS, "pwd.all" if qualname.endswith("all") else "pwd.struct_passwd")
        if qualname in ("os.walk", "os.fwalk", "os.scandir") and a0 is not None and strings_of(a0):
            return Instance(a0.flags, qualname, strings_of(a0)[0])
        if qualname in ("os.getpgid", "os.getsid") and a0 is not None and not (isinstance(a0, Num) and a0.value == 0):
            return Unknown(a0.flags & {"ownpid", "foreignproc"})  # the group of whatever process it names
        if qualname in rules.OWN_PIDS:
            return Unknown(frozenset({"ownpid"}))
        if qualname == "psutil.process_iter":
            return Instance(frozenset({"foreignproc"}), "psutil.process_iter")
        if qualname in ("psutil.pids", "psutil.win_service_iter"):
            return Unknown(frozenset({"foreignproc"}))
        if qualname == "psutil.Process":
            own = a0 is None or (self._own_process(a0) and not self._foreign_process(a0))
            return Instance(NO_FLAGS, "psutil.Process:own") if own else Instance(frozenset({"foreignproc"}), "psutil.Process")
        if qualname.startswith("psutil.Process:own#") and qualname.endswith(("#children", "#parent")):
            return Instance(NO_FLAGS, "psutil.Process:own#children")
        if qualname == "builtins.compile" and a0 is not None:
            return self._code_value(a0, flags)
        if qualname in ("marshal.loads", "marshal.load"):
            return Code(flags | {"encoded", "marshal"}, None)
        if qualname in ("types.FunctionType", "types.CodeType", "types.LambdaType") and args:
            return args[0] if isinstance(args[0], Code) else Code(flags, None)
        if qualname in ("pickle.loads", "pickle.load", "dill.loads"):
            return Unknown(flags | {"encoded"})
        if qualname in _PARSERS:  # values parsed out of a configuration file (a URL, a user name) are not the file
            return Unknown(flags - {"sysfile", "sliced"})
        callee = self._local_callee(qualname)
        if callee is not None and callee not in self.classes:
            returned = tuple(self.returns.get(callee, {}).values())[:MAX_ALTERNATIVES]
            if returned:  # what the function returns, marked as having crossed a function
                marks = (flags_of(returned) - {"obfname", "indirect", "partial"}) | {"param"}
                return returned[0] if len(returned) == 1 and not (marks - returned[0].flags) else Alternatives(marks, returned)
        if qualname.startswith("<local>."):
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
    def _code_value(value: Value, flags: frozenset[str]) -> Value:
        if isinstance(value, Str):
            return Code(value.flags | flags, value.value)
        if isinstance(value, Bytes):
            return Code(value.flags | flags, value.value.decode("utf-8", "replace"))
        if isinstance(value, Code):
            return value
        return Code(value.flags | flags, None)

    def _fold_pure_call(self, qualname: str, args: list[Value], kwargs: dict[str, Value], flags: frozenset[str]) -> Value | None:
        a0 = args[0] if args else None
        enc = flags | {"encoded"}
        if qualname == "builtins.chr" and isinstance(a0, Num) and isinstance(a0.value, int):
            return Str(enc, chr(a0.value))
        if qualname == "builtins.ord" and isinstance(a0, Str) and len(a0.value) == 1:
            return Num(flags, ord(a0.value))
        if qualname == "builtins.str" and isinstance(a0, (Str, Num)) and len(args) == 1:
            return Str(a0.flags, str(a0.value))
        if qualname == "builtins.str" and isinstance(a0, Bytes):
            return Str(enc, a0.value.decode(args[1].value if len(args) > 1 and isinstance(args[1], Str) else "utf-8", "replace"))
        if qualname == "builtins.int" and isinstance(a0, (Str, Num)):
            base = args[1].value if len(args) > 1 and isinstance(args[1], Num) else 10
            return Num(flags, int(a0.value, base) if isinstance(a0.value, str) else int(a0.value))
        if qualname in ("builtins.bytes", "builtins.bytearray"):
            if isinstance(a0, Seq) and all(isinstance(i, Num) and isinstance(i.value, int) for i in a0.items):
                return Bytes(enc, bytes(i.value for i in a0.items))  # type: ignore[union-attr]
            if isinstance(a0, Str):
                return Bytes(a0.flags, a0.value.encode(args[1].value if len(args) > 1 and isinstance(args[1], Str) else "utf-8"))
            if isinstance(a0, Bytes):
                return a0
        if qualname in ("builtins.sorted", "builtins.list", "builtins.reversed", "builtins.tuple") and isinstance(a0, Instance) and a0.kind.endswith("#iter"):
            return a0
        if qualname in ("builtins.list", "builtins.tuple") and a0 is not None:
            items = self._iterate(a0)
            return Seq(a0.flags, tuple(items)) if items is not None else Unknown(a0.flags - {"sockfd"})
        if qualname == "builtins.reversed" and a0 is not None:
            items = self._iterate(a0)
            if items is not None:
                return Seq(a0.flags | {"encoded"}, tuple(reversed(items)))
        if qualname == "builtins.map" and len(args) == 2 and isinstance(args[0], Ref):
            items = self._iterate(args[1])
            if items is not None and len(items) <= 100_000:
                mapped = [self._call(args[0], [item], {}, []) for item in items]
                return Seq(args[1].flags | {"built"}, tuple(mapped))
        if qualname in ("bytes.fromhex", "bytearray.fromhex") and isinstance(a0, Str):
            return Bytes(enc, bytes.fromhex(a0.value))
        if qualname in rules.DECODERS and qualname.startswith(("base64.", "binascii.")) and isinstance(a0, (Str, Bytes)):
            data = a0.value.encode("latin-1") if isinstance(a0, Str) else a0.value
            name = qualname.split(".", 1)[1]
            decoded = {
                "b64decode": lambda b: base64.b64decode(b + b"=" * (-len(b) % 4)), "standard_b64decode": base64.standard_b64decode,
                "urlsafe_b64decode": lambda b: base64.urlsafe_b64decode(b + b"=" * (-len(b) % 4)), "b32decode": base64.b32decode,
                "b16decode": lambda b: base64.b16decode(b, casefold=True), "b85decode": base64.b85decode, "a85decode": base64.a85decode,
                "decodebytes": base64.decodebytes, "decodestring": base64.decodebytes, "unhexlify": binascii.unhexlify,
                "a2b_hex": binascii.a2b_hex, "a2b_base64": binascii.a2b_base64,
            }[name](data)
            return Bytes(enc, decoded)
        if qualname in rules.DECODERS and qualname.startswith(("base64.", "binascii.")) and a0 is not None:
            return Unknown(enc)
        if qualname in ("zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress"):
            if isinstance(a0, Bytes):
                return Bytes(enc, _decompress(qualname.split(".")[0], a0.value))
            return Unknown(enc)
        if qualname in ("codecs.decode", "codecs.encode") and a0 is not None:
            encoding = (args[1] if len(args) > 1 else kwargs.get("encoding", Str(NO_FLAGS, "utf-8")))
            if isinstance(encoding, Str):
                return _codec(a0, encoding.value, enc)
            return Unknown(enc)
        if qualname in ("os.path.expanduser", "os.path.expandvars", "os.path.abspath", "os.path.realpath", "os.path.normpath", "os.fspath",
                 "os.path.join", "posixpath.join", "ntpath.join"):
            parts = [a.value if isinstance(a, Str) else a.path if isinstance(a, Instance) and a.path else PLACEHOLDER for a in args]
            if not parts:
                return None
            return Str(flags, join_path(parts))
        if qualname in ("os.path.dirname", "os.path.basename") and isinstance(a0, (Str, Instance)):
            text = a0.value if isinstance(a0, Str) else a0.path or PLACEHOLDER
            return Str(flags, posixpath.dirname(text) if qualname.endswith("dirname") else posixpath.basename(text))
        if qualname == "os.path.expanduser" and a0 is None:
            return None
        if qualname in ("glob.glob", "glob.iglob") and isinstance(a0, Str):
            return Seq(a0.flags, (Str(a0.flags, a0.value),))
        if qualname == "random.choice" and isinstance(a0, Seq) and a0.items:
            return Alternatives(a0.flags, a0.items[:MAX_ALTERNATIVES])
        return None

    def _method(self, recv: Value, method: str, args: list[Value], kwargs: dict[str, Value], flags: frozenset[str]) -> Value:
        a0 = args[0] if args else None
        base_flags = recv.flags | flags
        if isinstance(recv, Str):
            s = recv.value
            if method == "join":
                items = self._iterate(a0) if a0 is not None else None
                if items is not None and all(isinstance(i, Str) for i in items):
                    text = s.join(i.value for i in items)  # type: ignore[union-attr]
                    return Str(base_flags | flags_of(items) | {"built"}, text) if len(text) <= MAX_VALUE_CHARS else Unknown(base_flags)
                return Unknown(base_flags | (a0.flags if a0 else NO_FLAGS))
            if method == "replace" and len(args) >= 2 and isinstance(args[0], Str) and isinstance(args[1], Str):
                text = s.replace(args[0].value, args[1].value)
                return Str(base_flags | {"built"}, text) if len(text) <= MAX_VALUE_CHARS else Unknown(base_flags)
            if method in ("upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize", "swapcase", "casefold") and all(
                isinstance(a, Str) for a in args
            ):
                return Str(base_flags | ({"encoded"} if method == "swapcase" else NO_FLAGS), getattr(s, method)(*(a.value for a in args)))  # type: ignore[union-attr]
            if method == "format":
                values = [a.value if isinstance(a, (Str, Num)) else PLACEHOLDER for a in args]
                named = {k: v.value if isinstance(v, (Str, Num)) else PLACEHOLDER for k, v in kwargs.items()}
                try:
                    text = s.format(*values, **named)
                except (IndexError, KeyError, ValueError):
                    return Unknown(base_flags)
                partial = PLACEHOLDER in text
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
