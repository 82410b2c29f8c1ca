"""The evaluator's operations: +, *, % and the rest over folded values, subscripts and slices, and
comprehensions (what a loop over a known sequence builds).
"""

from __future__ import annotations

import ast
import re

from . import rules
from .commands import PLACEHOLDER
from .opacity import OpacityResolver, known_name
from .roles import Evaluates
from .state import AnalysisState
from .values import (
    MAX_ALTERNATIVES,
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
    alternatives,
    canonical,
    flags_of,
    iter_value,
    iterate,
    truth_of,
    with_flags,
)


class OperationEvaluator:
    """Operators, subscripts, slices and comprehensions over the values the evaluator computed."""

    def __init__(self, state: AnalysisState, evaluator: Evaluates, resolver: OpacityResolver) -> None:
        self.state = state
        self.evaluator = evaluator
        self.resolver = resolver

    def subscript(self, base: Value, index_node: ast.AST, depth: int) -> Value:
        if isinstance(index_node, ast.Slice):
            lower, upper, step = (self.evaluator.evaluate(part, depth) if part is not None else Num(NO_FLAGS, None)
                                  for part in (index_node.lower, index_node.upper, index_node.step))
            if isinstance(base, (Str, Bytes, Seq)) and all(isinstance(p, Num) for p in (lower, upper, step)):
                bounds = slice(lower.value, upper.value, step.value)  # type: ignore[union-attr]
                flag = "encoded" if (step.value or 1) < 0 else "built"  # type: ignore[union-attr]
                if isinstance(base, Str):
                    return Str(base.flags | {flag}, base.value[bounds])
                if isinstance(base, Bytes):
                    return Bytes(base.flags | {flag}, base.value[bounds])
                return Seq(base.flags | {flag, "sliced"}, base.items[bounds])
            if isinstance(base, Alternatives) and base.options and all(isinstance(o, Str) for o in base.options) and \
                    all(isinstance(p, Num) for p in (lower, upper, step)):  # a helper's parameter: each text it is given, sliced
                bounds = slice(lower.value, upper.value, step.value)  # type: ignore[union-attr]
                flag = "encoded" if (step.value or 1) < 0 else "built"  # type: ignore[union-attr]
                return Alternatives(base.flags | {flag}, tuple(Str(o.flags | {flag}, o.value[bounds]) for o in base.options))  # type: ignore[attr-defined]
            return Unknown(base.flags | {"sliced"})
        index = self.evaluator.evaluate(index_node, depth)
        if isinstance(base, Opaque):  # opacity propagates (opacity.py)
            return base
        named = isinstance(index, (Str, Num)) or (isinstance(index, Alternatives) and bool(index.options)
                                                 and all(known_name(option) for option in index.options))
        module = isinstance(base, Ref) and base.recv is None and ("." not in base.qual and not base.qual.startswith("<")
                                                                  and base.qual != "sys" or base.qual.split(".")[0] in rules.DANGEROUS_MODULES - {"sys"})
        if isinstance(base, Ref) and base.recv is None and not named and (base.qual in ("<globals>", "builtins", "sys.modules") or module):
            return self.resolver.lookup(base, index, "a namespace subscripted")
        if isinstance(base, Ref) and base.qual == "<globals>" and isinstance(index, Str) and PLACEHOLDER in index.value:
            return self.resolver.lookup(base, index, "a namespace subscripted")
        if isinstance(base, Ref):
            if base.qual == "os.environ" and isinstance(index, Str):
                return self.evaluator.env_var(index.value)
            if base.qual == "sys.argv":
                return Unknown(frozenset({"self"})) if isinstance(index, Num) and index.value == 0 else Unknown(frozenset({"user"}))
            if base.qual == "<globals>" and isinstance(index, Str):
                value = self.evaluator.name(index.value)
                return with_flags(value, frozenset({"indirect"}) | (index.flags & {"built", "encoded"} and frozenset({"obfname"})))
            if base.qual == "sys.modules" and isinstance(index, Str):
                return Ref(frozenset({"indirect"}) | (frozenset({"obfname"}) if index.flags & {"built", "encoded"} else NO_FLAGS),
                           canonical(index.value))
            if isinstance(index, Str) and base.recv is None and (base.qual in ("builtins",) or module):  # a module's namespace by name
                return Ref(base.flags | {"indirect"} | (frozenset({"obfname"}) if index.flags & {"built", "encoded"} else NO_FLAGS),
                           canonical(f"{base.qual}.{index.value}"))
            return Unknown(base.flags - {"sockfd"})
        if isinstance(base, Instance) and base.kind == "pathlib.Path#parents":
            if isinstance(index, Num) and isinstance(index.value, int) and index.value >= 0:
                return Instance(base.flags, "pathlib.Path", (base.path or PLACEHOLDER) + "/.." * index.value)
            return Instance(base.flags, "pathlib.Path", PLACEHOLDER)  # parents[-1], parents[len(...) - 1]: an ancestor, maybe the top
        if isinstance(base, DictSeq) and isinstance(index, Str) and PLACEHOLDER not in index.value:  # XDG["a"]: the key's own value
            chosen = [item for key, item in zip(base.keys, base.items) if isinstance(key, Str) and key.value == index.value]
            if chosen and all(isinstance(key, Str) for key in base.keys):
                return with_flags(chosen[-1], base.flags)
        if isinstance(base, Seq) and isinstance(index, Num) and isinstance(index.value, int):
            return with_flags(base.items[index.value], base.flags)
        if isinstance(base, Seq) and isinstance(index, Str) and base.items:  # a dict's values: any of them
            return Alternatives(base.flags, base.items[:MAX_ALTERNATIVES])
        if isinstance(base, DictSeq) and base.items and not isinstance(index, Num):  # ROUTES[key]: whichever key is asked
            return Alternatives(base.flags, base.items[:MAX_ALTERNATIVES])
        if isinstance(base, Str) and isinstance(index, Num) and isinstance(index.value, int):
            return Str(base.flags | {"built"}, base.value[index.value])
        if isinstance(base, Bytes) and isinstance(index, Num) and isinstance(index.value, int):
            return Num(base.flags, base.value[index.value])
        if isinstance(base, Instance) and base.kind == "tuple:socket.accept" and isinstance(index, Num) and index.value == 0:
            return Instance(frozenset({"sockfd"}), "socket.socket")
        return Unknown((base.flags | index.flags) - {"sockfd"})

    def comprehension(self, node: ast.AST, depth: int) -> Value:
        generators = node.generators  # type: ignore[attr-defined]
        if len(generators) != 1 or not isinstance(generators[0].target, ast.Name):
            return Unknown(self.evaluator.evaluate(generators[0].iter, depth).flags - {"sockfd"}) if generators else UNKNOWN
        generator = generators[0]
        iterated = self.evaluator.evaluate(generator.iter, depth)
        items = iterate(iterated)
        sampled = items is None and not isinstance(iterated, Alternatives)
        if sampled:  # [join("/home", u) for u in os.listdir("/home")]: items like its element, how many unknown
            items = [iter_value(iterated)]
        if items is None or len(items) > 10_000:
            return Unknown(iterated.flags - {"sockfd"})
        name = generator.target.id
        saved = self.state.env.get(name)
        memo, self.state.memo = self.state.memo, None  # the element's value changes with every item
        out: list[Value] = []
        try:
            for item in items:
                self.state.env[name] = item
                if all(truth_of(self.evaluator.evaluate(cond, depth)) is not False for cond in generator.ifs):
                    out.append(self.evaluator.evaluate(node.elt, depth))  # type: ignore[attr-defined]
        finally:
            self.state.memo = memo
            if saved is None:
                self.state.env.pop(name, None)
            else:
                self.state.env[name] = saved
        if sampled:
            return Seq(frozenset({"built", "sampled"}) | (flags_of(out) & {"secret", "sysfile", "net", "user"}), tuple(out[:1]))
        return Seq(frozenset({"built"}), tuple(out))

    def binop(self, op: ast.operator, left: Value, right: Value) -> Value:
        for side in (left, right):  # `base + "/*"`, `home / rc` for each value a loop gives
            if isinstance(side, Alternatives) and 0 < len(side.options) <= 16 and not isinstance(op, (ast.BitXor, ast.BitAnd, ast.BitOr)):
                results = tuple(self.binop(op, option if side is left else left, right if side is left else option)
                                for option in side.options)
                return alternatives(side.flags, results)
        flags = (left.flags | right.flags) - {"sockfd"}
        if isinstance(op, ast.Add):
            if isinstance(left, Str) and isinstance(right, Str):
                if len(left.value) + len(right.value) > MAX_VALUE_CHARS:
                    return Unknown(flags)
                return Str(flags | {"built"}, left.value + right.value)
            if isinstance(left, Bytes) and isinstance(right, Bytes):
                if len(left.value) + len(right.value) > MAX_VALUE_CHARS:
                    return Unknown(flags)
                return Bytes(flags | {"built"}, left.value + right.value)
            if isinstance(left, Seq) and isinstance(right, Seq):
                return Seq(flags, left.items + right.items)
            if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, (int, float)) and isinstance(right.value, (int, float)):
                return Num(flags, left.value + right.value)
            if isinstance(left, Str) or isinstance(right, Str):
                text = (left.value if isinstance(left, Str) else PLACEHOLDER) + (right.value if isinstance(right, Str) else PLACEHOLDER)
                return Str(flags | {"partial"}, text[:MAX_VALUE_CHARS])
            return Unknown(flags)
        if isinstance(op, ast.Mult):
            seq, times = (left, right) if isinstance(right, Num) else (right, left)
            if isinstance(times, Num) and isinstance(times.value, int) and isinstance(seq, Seq) and not isinstance(seq, DictSeq):
                if len(seq.items) * max(times.value, 0) > 10_000:
                    return Unknown(flags)
                return Seq(flags | {"built"}, seq.items * max(times.value, 0))  # [".."] * depth
            if isinstance(times, Num) and isinstance(times.value, int) and isinstance(seq, (Str, Bytes)):
                if len(seq.value) * max(times.value, 0) > MAX_VALUE_CHARS:
                    return Unknown(flags)
                return (Str if isinstance(seq, Str) else Bytes)(flags | {"built"}, seq.value * times.value)  # type: ignore[operator]
            if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, int) and isinstance(right.value, int):
                if abs(left.value) < 1 << 62 and abs(right.value) < 1 << 62:
                    return Num(flags, left.value * right.value)
            return Unknown(flags)
        if isinstance(op, ast.Mod) and isinstance(left, Str) and isinstance(right, Seq):
            for index, item in enumerate(right.items):  # "%s/%s" % (base, name) for each value name may have
                if isinstance(item, Alternatives) and 0 < len(item.options) <= 16:
                    return Alternatives(item.flags, tuple(self.binop(op, left, Seq(right.flags, right.items[:index] + (option,) + right.items[index + 1:]))
                                                 for option in item.options))
        if isinstance(op, ast.Mod) and isinstance(left, Str):
            if isinstance(right, Seq) and all(isinstance(i, (Str, Num)) for i in right.items):
                return Str(flags | {"built"}, left.value % tuple(i.value for i in right.items))  # type: ignore[union-attr]
            if isinstance(right, Seq) and re.fullmatch(r"(?:[^%]|%%|%s)*", left.value) and left.value.count("%s") == len(right.items):
                known = tuple(i.value if isinstance(i, (Str, Num)) else i.path if isinstance(i, Instance) and i.path else PLACEHOLDER for i in right.items)
                return Str(flags | {"built", "partial"}, left.value % known)
            if isinstance(right, (Str, Num)):
                return Str(flags | {"built"}, left.value % right.value)
            return Str(flags | {"built", "partial"}, re.sub(r"%[-#0 +]*\d*(\.\d+)?[sdrifxXoc]", PLACEHOLDER, left.value))
        if isinstance(op, ast.Div) and isinstance(left, Instance) and left.kind == "pathlib.Path":
            part = right.value if isinstance(right, Str) else PLACEHOLDER
            base = left.path if left.path is not None else PLACEHOLDER
            return Instance(flags, "pathlib.Path", part if part.startswith("/") else f"{base.rstrip('/')}/{part}")
        if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, int) and isinstance(right.value, int):
            table = {ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b, ast.BitXor: lambda a, b: a ^ b,
                     ast.Sub: lambda a, b: a - b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
                     ast.LShift: lambda a, b: a << b if b < 64 else None, ast.RShift: lambda a, b: a >> b,
                     ast.Pow: lambda a, b: a ** b if 0 <= b < 64 and abs(a) < 1 << 16 else None}
            if type(op) in table:
                result = table[type(op)](left.value, right.value)
                return Num(flags, result) if result is not None else Unknown(flags)
        return Unknown(flags)
