"""The evaluator: what an expression's value may be (values.py), folded from constants and followed
through names, within limits that keep hostile code from making it expensive.
"""

from __future__ import annotations

import ast
import binascii
import builtins
import lzma
import string
import zlib

from . import rules
from .calls import CallEvaluator
from .commands import PLACEHOLDER
from .folding import ConstantFolder
from .opacity import LOOKED_UP, OpacityResolver
from .operations import OperationEvaluator
from .state import AnalysisState
from .values import (
    MAX_ALTERNATIVES,
    MAX_FOLD_DEPTH,
    MAX_FOLD_STEPS,
    MAX_VALUE_CHARS,
    NO_FLAGS,
    UNKNOWN,
    Alternatives,
    Bytes,
    DictSeq,
    Instance,
    Num,
    Opaque,
    Ref,
    Seq,
    Str,
    Unknown,
    Value,
    canonical,
    flags_of,
    own_process,
    truth_of,
    with_flags,
)


def lambda_name(node: ast.Lambda) -> str:
    """Each lambda its own name, so that its call sites and what it returns are its own."""
    return f"<lambda>@{node.lineno}:{node.col_offset}"


_STRING_CONSTANTS = {name: getattr(string, name) for name in ("ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits",
                                                                 "hexdigits", "octdigits", "punctuation", "printable", "whitespace")}
_OS_CONSTANTS = {"sep": "/", "altsep": "/", "curdir": ".", "pardir": "..", "extsep": "."}
_BUILTIN_NAMES = frozenset(vars(builtins))


class ExpressionEvaluator:
    """Constant folding and value tracking over expressions: names, attributes, f-strings, collections.
    The evaluator's one door (roles.Evaluates): it makes its parts, OperationEvaluator (operators,
    subscripts, comprehensions), CallEvaluator (calls), ConstantFolder (pure functions over constants)
    and OpacityResolver (what is opaque), and hands each itself and the run's state."""

    def __init__(self, state: AnalysisState) -> None:
        self.state = state
        self.resolver = OpacityResolver(state)
        self.folder = ConstantFolder(self)
        self.operations = OperationEvaluator(state, self, self.resolver)
        self.calls = CallEvaluator(state, self, self.folder, self.resolver)

    # The parts' own doors (roles.Evaluates), for the walker, the judges and the parts themselves.

    def call(self, func: Value, args: list[Value], kwargs: dict[str, Value], spread: list[Value]) -> Value:
        return self.calls.call(func, args, kwargs, spread)

    def by_name(self, base: Value, name: Value, how: str) -> Value:
        return self.calls.by_name(base, name, how)

    def env_var(self, name: str) -> Value:
        return self.calls.env_var(name)

    def binop(self, op: ast.operator, left: Value, right: Value) -> Value:
        return self.operations.binop(op, left, right)

    def evaluate(self, node: ast.AST | None, depth: int = 0) -> Value:
        if node is None:
            return UNKNOWN
        memo = self.state.memo
        if memo is not None:
            key = id(node)
            found = memo.get(key)
            if found is not None:
                return found
        self.state.steps += 1
        if not self.state.steps & 1023:
            self.state.check_deadline()
        if depth > MAX_FOLD_DEPTH or self.state.steps > MAX_FOLD_STEPS:
            value: Value = Unknown(frozenset({"opaque"}))
        else:
            try:
                value = self._evaluate_node(node, depth + 1)
            except (ValueError, TypeError, OverflowError, MemoryError, UnicodeError, IndexError, KeyError, ZeroDivisionError,
                    binascii.Error, zlib.error, lzma.LZMAError, EOFError, OSError, AttributeError, RecursionError):
                value = UNKNOWN
        if memo is not None:
            memo[id(node)] = value
        return value

    def _evaluate_node(self, node: ast.AST, depth: int) -> Value:
        if isinstance(node, ast.Constant):
            constant = node.value
            if isinstance(constant, str):
                return Str(NO_FLAGS, constant)
            if isinstance(constant, bytes):
                return Bytes(NO_FLAGS, constant)
            if isinstance(constant, (int, float, bool)) or constant is None:
                return Num(NO_FLAGS, constant)
            return UNKNOWN
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                known = self.state.attrs.get(node.attr)
                if known is None and node.attr in self.state.class_attrs:
                    known = self.state.env.get(node.attr)
                if known is not None:
                    return known
            return self.attribute(self.evaluate(node.value, depth), node.attr)
        if isinstance(node, ast.Call):
            func = self.evaluate(node.func, depth)
            args = self.arguments(node, depth)
            kwargs = {k.arg: self.evaluate(k.value, depth) for k in node.keywords if k.arg}
            spread = [self.evaluate(k.value, depth) for k in node.keywords if not k.arg]
            return self.calls.call(func, args, kwargs, spread)
        if isinstance(node, ast.BinOp):
            return self._evaluate_binary(node, depth)
        if isinstance(node, ast.JoinedStr):
            return self._evaluate_fstring(node, depth)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return self._evaluate_collection(node, depth)
        if isinstance(node, ast.Dict):
            return self._evaluate_dict(node, depth)
        if isinstance(node, ast.Subscript):
            return self.operations.subscript(self.evaluate(node.value, depth), node.slice, depth)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self.operations.comprehension(node, depth)
        if isinstance(node, ast.Await):
            return self.evaluate(node.value, depth)
        if isinstance(node, ast.NamedExpr):
            return self.evaluate(node.value, depth)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return self._evaluate_comparison(node, depth)
        if isinstance(node, ast.UnaryOp):
            return self._evaluate_unary(node, depth)
        if isinstance(node, ast.BoolOp):
            return self._evaluate_boolean(node, depth)
        if isinstance(node, ast.IfExp):
            body, orelse = self.evaluate(node.body, depth), self.evaluate(node.orelse, depth)
            return Alternatives(NO_FLAGS, (body, orelse))
        if isinstance(node, ast.Lambda):
            return Ref(NO_FLAGS, f"<local>.{lambda_name(node)}")
        return UNKNOWN

    def _evaluate_binary(self, node: ast.BinOp, depth: int) -> Value:
        if isinstance(node.op, ast.Add):
            operands = []
            current: ast.AST = node
            while isinstance(current, ast.BinOp) and isinstance(current.op, ast.Add) and len(operands) < 100_000:
                operands.append(current.right)
                current = current.left
            operands.append(current)
            values = [self.evaluate(o, depth) for o in reversed(operands)]
            result = values[0]
            for value in values[1:]:
                result = self.operations.binop(ast.Add(), result, value)
            return result
        return self.operations.binop(node.op, self.evaluate(node.left, depth), self.evaluate(node.right, depth))

    def _evaluate_fstring(self, node: ast.JoinedStr, depth: int) -> Value:
        texts: list[str] = [""]  # every text the f-string may be, for alternatives of its parts
        flags = frozenset({"built"})
        partial = False
        for piece in node.values:
            if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                texts = [text + piece.value for text in texts]
                continue
            if isinstance(piece, ast.FormattedValue):
                value = self.evaluate(piece.value, depth)
                flags = flags | value.flags
                spec = "".join(p.value for p in getattr(piece.format_spec, "values", []) if isinstance(p, ast.Constant))
                options = value.options[:8] if isinstance(value, Alternatives) and len(texts) * len(value.options) <= 16 else (value,)
                pieces = []
                for option in options:
                    flags = flags | option.flags
                    if isinstance(option, (Str, Num)) and not (isinstance(option, Num) and option.value is None and spec):
                        pieces.append(format(option.value, spec) if piece.conversion == -1 else
                                      format({115: str, 114: repr, 97: ascii}[piece.conversion](option.value), spec))
                    elif isinstance(option, Instance) and option.path is not None:
                        pieces.append(option.path)
                    else:
                        if isinstance(option, Ref) and option.qual == "os.environ":
                            flags = flags | {"secret"}
                        pieces.append(PLACEHOLDER)
                        partial = True
                texts = [text + piece_text for text in texts for piece_text in pieces]
        if sum(map(len, texts)) > MAX_VALUE_CHARS:
            return Unknown(flags)
        marks = flags | ({"partial"} if partial else NO_FLAGS)
        if len(texts) == 1:
            return Str(marks, texts[0])
        return Alternatives(marks, tuple(Str(marks, text) for text in texts))

    def _evaluate_collection(self, node: ast.List | ast.Tuple | ast.Set, depth: int) -> Value:
        items = []
        for element in node.elts[:10_000]:
            if isinstance(element, ast.Starred):
                inner = self.evaluate(element.value, depth)
                items.extend(inner.items if isinstance(inner, Seq) else [inner])
            else:
                items.append(self.evaluate(element, depth))
        return Seq(NO_FLAGS, tuple(items))

    def _evaluate_dict(self, node: ast.Dict, depth: int) -> Value:
        flags = NO_FLAGS
        items = []
        for key, value_node in zip(node.keys, node.values):
            value = self.evaluate(value_node, depth)
            if key is None and isinstance(value, Ref) and value.qual == "os.environ":
                flags = flags | {"secret"}
            flags = flags | value.flags
            items.append(value)
        if flags:
            return Unknown(flags - {"sockfd"})
        keys = tuple(self.evaluate(key, depth) if key is not None else UNKNOWN for key in node.keys)
        return DictSeq(NO_FLAGS, tuple(items), keys)

    def _evaluate_comparison(self, node: ast.Compare, depth: int) -> Value:
        left, right = self.evaluate(node.left, depth), self.evaluate(node.comparators[0], depth)
        if isinstance(left, (Num, Str)) and isinstance(right, (Num, Str)):
            op = node.ops[0]
            table = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
                     ast.Gt: lambda a, b: a > b, ast.LtE: lambda a, b: a <= b, ast.GtE: lambda a, b: a >= b}
            if type(op) in table:
                return Num(NO_FLAGS, table[type(op)](left.value, right.value))
        return Unknown((left.flags | right.flags) - {"sockfd"})

    def _evaluate_unary(self, node: ast.UnaryOp, depth: int) -> Value:
        operand = self.evaluate(node.operand, depth)
        if isinstance(node.op, ast.Not):
            truth = truth_of(operand)
            return Num(NO_FLAGS, not truth) if truth is not None else UNKNOWN
        if isinstance(operand, Num) and isinstance(operand.value, (int, float)):
            return Num(operand.flags, -operand.value if isinstance(node.op, ast.USub) else
                       ~operand.value if isinstance(node.op, ast.Invert) else operand.value)
        return Unknown(operand.flags)

    def _evaluate_boolean(self, node: ast.BoolOp, depth: int) -> Value:
        values = [self.evaluate(v, depth) for v in node.values]
        if isinstance(node.op, ast.Or):
            possible = []
            for value in values:
                truth = truth_of(value)
                if truth is False:
                    continue
                possible.append(value)
                if truth is True:
                    break
            if len(possible) == 1:
                return possible[0]
            if possible:  # `os.environ.get(...) or "~/.pgpass"`: any of them
                return Alternatives(flags_of(possible) - {"sockfd"}, tuple(possible[:MAX_ALTERNATIVES]))
        return Unknown(flags_of(values) - {"sockfd"})

    def arguments(self, node: ast.Call, depth: int = 0) -> list[Value]:
        """The positional arguments, a starred list of known length spread into its items
        (``join(base, *("../" * 8).split("/"))``)."""
        out: list[Value] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                value = self.evaluate(a.value, depth)
                if isinstance(value, Alternatives) and len(value.options) == 1:  # *rest bound from the one call site
                    value = with_flags(value.options[0], value.flags)
                if isinstance(value, Seq) and not isinstance(value, DictSeq) and "sampled" not in value.flags and len(value.items) <= 64:
                    out.extend(with_flags(item, value.flags - {"built", "sliced"}) for item in value.items)
                else:
                    out.append(value)
            else:
                out.append(self.evaluate(a, depth))
        return out

    def name(self, name: str) -> Value:
        value = self.state.env.get(name)
        if value is not None:
            return value
        if name in ("__builtins__", "builtins"):
            return Ref(NO_FLAGS, "builtins")
        if name == "__file__":
            return Str(frozenset({"self"}), "__file__")  # the program's own file, where it runs
        if name in _BUILTIN_NAMES:
            return Ref(NO_FLAGS, "builtins." + name)
        if self.state.star_modules:  # `from os import *`: an unknown name may come from the first such module
            return Ref(frozenset({"indirect"}), canonical(f"{self.state.star_modules[0]}.{name}"))
        return UNKNOWN

    def attribute(self, base: Value, attr: str) -> Value:
        if isinstance(base, Opaque):  # opacity propagates (opacity.py)
            return base
        walked = self.resolver.walk_attribute(base, attr)
        if walked is not None:
            return walked
        if LOOKED_UP in base.flags and not isinstance(base, (Str, Bytes, Num, Seq)):
            return Unknown(frozenset({LOOKED_UP}))  # a member of harmless data or of the program's own class: still harmless
        if attr == "__builtins__":
            return Ref(frozenset({"indirect"}), "builtins")
        if attr == "__self__" and isinstance(base, Ref) and base.recv is None and base.qual.startswith("builtins."):
            return Ref(frozenset({"indirect"}), "builtins")  # print.__self__: the builtins module
        if isinstance(base, Ref) and base.recv is None and base.qual in ("os", "os.path", "posixpath") and attr in _OS_CONSTANTS:
            return Str(NO_FLAGS, _OS_CONSTANTS[attr])
        if isinstance(base, Ref) and base.recv is None and base.qual == "string" and attr in _STRING_CONSTANTS:
            return Str(NO_FLAGS, _STRING_CONSTANTS[attr])
        if isinstance(base, Ref) and base.recv is None and f"{base.qual}.{attr}" in rules.SITE_CONSTANTS:
            return Str(NO_FLAGS, rules.SITE_CONSTANTS[f"{base.qual}.{attr}"])
        if isinstance(base, Alternatives) and len(base.options) == 1:  # a parameter with one caller: what it passes
            return self.attribute(with_flags(base.options[0], base.flags - {"param"}), attr)
        if isinstance(base, Alternatives) and base.options and len(base.options) <= 8 and all(isinstance(o, (Instance, Ref)) for o in base.options):
            return Alternatives(base.flags, tuple(self.attribute(option, attr) for option in base.options))
        if isinstance(base, Instance) and base.kind == "pathlib.Path" and attr in ("anchor", "root", "drive") and base.path is not None \
                and not base.path.startswith("~"):
            if attr == "drive":
                return Str(base.flags, "")
            # the top of an absolute path; cwd's and __file__'s are absolute where the program runs
            return Str(base.flags, "/") if base.path.startswith("/") or base.path in (".", "__file__") else Str(base.flags | {"partial"}, PLACEHOLDER)
        if isinstance(base, Instance) and base.kind == "pathlib.Path" and attr in ("parent", "parents"):
            path = base.path if base.path is not None else PLACEHOLDER
            return Instance(base.flags, "pathlib.Path" if attr == "parent" else "pathlib.Path#parents", f"{path.rstrip('/')}/..")
        if isinstance(base, Ref):
            if attr in ("__dict__", "__builtins__") and base.recv is None:
                return Ref(base.flags, "builtins" if attr == "__builtins__" else base.qual)
            if base.qual == "<globals>":
                return UNKNOWN
            if base.recv is not None:
                return Ref(base.flags, f"{base.qual}.{attr}", base.recv)
            return Ref(base.flags, canonical(f"{base.qual}.{attr}"))
        if attr == "pid" and own_process(base):
            return Unknown(frozenset({"ownpid"}))
        if isinstance(base, Instance) and base.kind == "argparse.Namespace":
            default = self.state.arg_defaults.get(attr)
            given = Unknown(frozenset({"user"}))
            return Alternatives(NO_FLAGS, (given, default)) if default is not None else given
        if isinstance(base, Instance) and base.kind == "pwd.struct_passwd":
            return Str(NO_FLAGS, "~") if attr in ("pw_dir", "home") else UNKNOWN  # every account's home, spelled as one
        if isinstance(base, Instance) and base.kind == "os.DirEntry" and attr == "path":
            return Str(base.flags, base.path or PLACEHOLDER)
        if isinstance(base, Instance):
            if base.kind == "sys.argv" or (base.kind == "file" and attr == "name"):
                return Unknown(base.flags)
            return Ref(base.flags, f"{base.kind}#{attr}", base)
        if isinstance(base, (Str, Bytes, Seq)):
            kind = "str" if isinstance(base, Str) else "bytes" if isinstance(base, Bytes) else "seq"
            return Ref(base.flags, f"{kind}#{attr}", base)
        if base.flags & {"self"} and attr in ("executable", "argv"):
            return Unknown(base.flags)
        return Ref(base.flags, f"?#{attr}", base)
