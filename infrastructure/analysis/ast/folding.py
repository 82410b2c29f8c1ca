"""The evaluator's constant folding of calls: what a pure function or a string/bytes method returns
when its arguments are known (decoding, decompressing, joining, reversing...).
"""

from __future__ import annotations

import base64
import binascii
import bz2
import codecs
import lzma
import posixpath
import unicodedata
import zlib

from . import rules
from .commands import PLACEHOLDER
from .roles import Evaluates
from .values import (
    MAX_ALTERNATIVES,
    MAX_VALUE_CHARS,
    NO_FLAGS,
    Alternatives,
    Bytes,
    DictSeq,
    Instance,
    Num,
    Ref,
    Seq,
    Str,
    Unknown,
    Value,
    flags_of,
    iterate,
    join_path,
)


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


class ConstantFolder:
    """Pure functions and methods over known constants, folded as Python would compute them: decoders
    and decompressors, chr/ord/bytes, string and bytes methods, joins and splits."""

    def __init__(self, evaluator: Evaluates) -> None:
        self.evaluator = evaluator  # map(f, ...) and the like call back into the evaluator

    def fold_pure_call(self, qualname: str, args: list[Value], kwargs: dict[str, Value], flags: frozenset[str]) -> Value | None:
        first = args[0] if args else None
        encoded = flags | {"encoded"}
        if qualname == "unicodedata.normalize" and len(args) > 1 and isinstance(first, Str) and isinstance(args[1], Str):
            return Str(args[1].flags | flags | {"built"}, unicodedata.normalize(first.value, args[1].value))  # type: ignore[arg-type]
        if qualname == "builtins.chr" and isinstance(first, Num) and isinstance(first.value, int):
            return Str(encoded, chr(first.value))
        if qualname == "builtins.ord" and isinstance(first, Str) and len(first.value) == 1:
            return Num(flags, ord(first.value))
        if qualname == "builtins.str" and isinstance(first, (Str, Num)) and len(args) == 1:
            return Str(first.flags, str(first.value))
        if qualname == "builtins.str" and isinstance(first, Bytes):
            return Str(encoded, first.value.decode(args[1].value if len(args) > 1 and isinstance(args[1], Str) else "utf-8", "replace"))
        if qualname == "builtins.int" and isinstance(first, (Str, Num)):
            base = args[1].value if len(args) > 1 and isinstance(args[1], Num) else 10
            return Num(flags, int(first.value, base) if isinstance(first.value, str) else int(first.value))
        if qualname in ("builtins.bytes", "builtins.bytearray"):
            if isinstance(first, Seq) and all(isinstance(i, Num) and isinstance(i.value, int) for i in first.items):
                return Bytes(encoded, bytes(i.value for i in first.items))  # type: ignore[union-attr]
            if isinstance(first, Str):
                return Bytes(first.flags, first.value.encode(args[1].value if len(args) > 1 and isinstance(args[1], Str) else "utf-8"))
            if isinstance(first, Bytes):
                return first
        if qualname in ("builtins.sorted", "builtins.list", "builtins.reversed", "builtins.tuple") and isinstance(first, Instance) and first.kind.endswith("#iter"):
            return first
        if qualname in ("builtins.list", "builtins.tuple") and first is not None:
            items = iterate(first)
            return Seq(first.flags, tuple(items)) if items is not None else Unknown(first.flags - {"sockfd"})
        if qualname == "builtins.reversed" and first is not None:
            items = iterate(first)
            if items is not None:
                return Seq(first.flags | {"encoded"}, tuple(reversed(items)))
        if qualname == "builtins.map" and len(args) == 2 and isinstance(args[0], Ref):
            items = iterate(args[1])
            if items is not None and len(items) <= 100_000:
                mapped = [self.evaluator.call(args[0], [item], {}, []) for item in items]
                return Seq(args[1].flags | {"built"}, tuple(mapped))
        if qualname in ("bytes.fromhex", "bytearray.fromhex") and isinstance(first, Str):
            return Bytes(encoded, bytes.fromhex(first.value))
        if qualname in rules.DECODERS and qualname.startswith(("base64.", "binascii.")) and isinstance(first, (Str, Bytes)):
            data = first.value.encode("latin-1") if isinstance(first, Str) else first.value
            name = qualname.split(".", 1)[1]
            decoded = {
                "b64decode": lambda b: base64.b64decode(b + b"=" * (-len(b) % 4)), "standard_b64decode": base64.standard_b64decode,
                "urlsafe_b64decode": lambda b: base64.urlsafe_b64decode(b + b"=" * (-len(b) % 4)), "b32decode": base64.b32decode,
                "b16decode": lambda b: base64.b16decode(b, casefold=True), "b85decode": base64.b85decode, "a85decode": base64.a85decode,
                "decodebytes": base64.decodebytes, "decodestring": base64.decodebytes, "unhexlify": binascii.unhexlify,
                "a2b_hex": binascii.a2b_hex, "a2b_base64": binascii.a2b_base64,
            }[name](data)
            return Bytes(encoded, decoded)
        if qualname in rules.DECODERS and qualname.startswith(("base64.", "binascii.")) and first is not None:
            return Unknown(encoded)
        if qualname in ("zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress"):
            if isinstance(first, Bytes):
                return Bytes(encoded, _decompress(qualname.split(".")[0], first.value))
            return Unknown(encoded)
        if qualname in ("codecs.decode", "codecs.encode") and first is not None:
            encoding = (args[1] if len(args) > 1 else kwargs.get("encoding", Str(NO_FLAGS, "utf-8")))
            if isinstance(encoding, Str):
                return _codec(first, encoding.value, encoded)
            return Unknown(encoded)
        if qualname in ("os.path.expanduser", "os.path.expandvars", "os.path.abspath", "os.path.realpath", "os.path.normpath", "os.fspath",
                 "os.path.join", "posixpath.join", "ntpath.join"):
            parts = [a.value if isinstance(a, Str) else a.path if isinstance(a, Instance) and a.path else PLACEHOLDER for a in args]
            if not parts:
                return None
            return Str(flags, join_path(parts))
        if qualname in ("os.path.dirname", "os.path.basename") and isinstance(first, (Str, Instance)):
            text = first.value if isinstance(first, Str) else first.path or PLACEHOLDER
            return Str(flags, posixpath.dirname(text) if qualname.endswith("dirname") else posixpath.basename(text))
        if qualname == "os.path.expanduser" and first is None:
            return None
        if qualname in ("glob.glob", "glob.iglob") and isinstance(first, Str):
            return Seq(first.flags, (Str(first.flags, first.value),))
        if qualname == "random.choice" and isinstance(first, Seq) and first.items:
            return Alternatives(first.flags, first.items[:MAX_ALTERNATIVES])
        return None

    def method(self, recv: Value, method: str, args: list[Value], kwargs: dict[str, Value], flags: frozenset[str]) -> Value:
        a0 = args[0] if args else None
        base_flags = recv.flags | flags
        if isinstance(recv, Str):
            s = recv.value
            if method == "join":
                items = iterate(a0) if a0 is not None else None
                if items is not None and any(isinstance(i, Alternatives) for i in items) and all(
                        isinstance(i, Str) or isinstance(i, Alternatives) and 0 < len(i.options) <= 64 and all(isinstance(o, Str) for o in i.options)
                        for i in items):
                    # lines a loop gives, one of several each: every one of them, in order (what may be run)
                    items = [option for i in items for option in (i.options if isinstance(i, Alternatives) else (i,))]
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
