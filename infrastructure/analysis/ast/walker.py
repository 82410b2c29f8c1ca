"""The walker: two ordered passes over the tree, the first learning what names are bound to (scopes,
parameters, loops, imports), the second handing each node to the judges.
"""

from __future__ import annotations

import ast
from typing import Any

from . import rules
from .commands import PLACEHOLDER
from .evaluator import lambda_name
from .judges import CallJudges
from .loops import LoopTracker
from .roles import Evaluates
from .state import AnalysisState, Loop, WalkContext
from .values import (
    MAX_ALTERNATIVES,
    NO_FLAGS,
    UNKNOWN,
    Alternatives,
    Code,
    DictSeq,
    Instance,
    Opaque,
    Ref,
    Seq,
    Str,
    Unknown,
    Value,
    canonical,
    climbs_up,
    flags_of,
    folded_strings,
    iter_value,
    iterate,
    truth_of,
    with_flags,
)

_BLOCK_NODES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef,
                ast.ClassDef, ast.Match) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_COUNTED = {ast.For: "loops", ast.AsyncFor: "loops", ast.While: "loops", ast.comprehension: "loops", ast.Import: "imports",
            ast.ImportFrom: "imports", ast.Call: "calls", ast.FunctionDef: "functions", ast.AsyncFunctionDef: "functions",
            ast.Lambda: "functions", ast.ClassDef: "classes"}
_NOT_WALKED = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


_NO_CALLER = Unknown(frozenset({"param"}))  # a parameter whose callers the analysis has not seen (yet)


def _children(node: ast.AST) -> list[ast.AST]:
    """Child nodes worth visiting: ast.iter_child_nodes without Load()/Add()-like markers."""
    out = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST) and not isinstance(item, _NOT_WALKED))
        elif isinstance(value, ast.AST) and not isinstance(value, _NOT_WALKED):
            out.append(value)
    return out


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _assigned_in(body: list[ast.stmt]) -> set[str]:
    """Names (and attribute names) a block assigns to, however deep."""
    out: set[str] = set()
    for statement in body:
        for node in ast.walk(statement):
            targets: list[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
                targets = [node.target]
            for target in targets:
                out |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
                out |= {n.attr for n in ast.walk(target) if isinstance(n, ast.Attribute)}
    return out


class TreeWalker:
    """One pass over the tree per ``walk``, iterative: name binding (assignments, imports, parameters,
    loop targets), loops and their bounds, and the hand-off of each node to the judges in the second
    pass (ProgramAnalysis.run orders the passes; the state says which pass this is)."""

    def __init__(self, state: AnalysisState, evaluator: Evaluates, loop_tracker: LoopTracker, judges: CallJudges) -> None:
        self.state = state
        self.evaluator = evaluator
        self.loop_tracker = loop_tracker
        self.judges = judges
        self.execution = judges.execution  # imports are checked against the threat list
        self.opacity = judges.opacity  # classes are checked for import-loader bases

    def walk(self, tree: ast.AST) -> None:
        # (node, context, expression depth); a callable instead of a node restores state when a
        # function's body has been walked. Iterative: the tree's depth never reaches the C stack.
        stack: list[tuple[Any, WalkContext, int]] = [(tree, WalkContext(), 0)]
        second = self.state.pass_no == 2
        counts = self.state.counts
        on_text, on_name = self.judges.on_text, self.judges.on_name
        check_deadline, visited = self.state.check_deadline, 0
        while stack:
            visited += 1
            if not visited & 255:
                check_deadline()
            node, ctx, depth = stack.pop()
            cls = node.__class__
            if cls is ast.Name:  # the commonest nodes: nothing below them
                if second:
                    if depth > self.state.max_expr_depth:
                        self.state.max_expr_depth = depth
                    if node.id in rules.EXECUTABLE_MEMORY_NAMES:
                        on_name(node)
                continue
            if cls is ast.Constant:
                if second:
                    if depth > self.state.max_expr_depth:
                        self.state.max_expr_depth = depth
                    if isinstance(node.value, str):
                        on_text(node, node.value, ctx)
                continue
            if callable(node):
                node()
                continue
            if second:
                if depth > self.state.max_expr_depth:
                    self.state.max_expr_depth = depth
                if ctx.block_depth > self.state.max_block_depth:
                    self.state.max_block_depth = ctx.block_depth
                key = _COUNTED.get(cls)
                if key is not None:
                    counts[key] += len(node.names) if key == "imports" else 1
                if cls is ast.Attribute and (node.attr in rules.EXECUTABLE_MEMORY_NAMES or node.attr in ("SOCK_RAW", "AF_PACKET")):
                    on_name(node)
            child_ctx = self._enter(node, ctx, stack)
            child_depth = depth + 1 if isinstance(node, ast.expr) else 0
            children = _children(node)
            for child in reversed(children):
                stack.append((child, child_ctx, child_depth))

    def _enter(self, node: ast.AST, ctx: WalkContext, stack: list[tuple[Any, WalkContext, int]]) -> WalkContext:
        """Learn from ``node`` (and in the second pass judge it); return the context of its children."""
        if isinstance(node, ast.expr):
            return self._enter_expression(node, ctx, stack)
        child = WalkContext(ctx.loops, ctx.func, ctx.block_depth + 1) if isinstance(node, _BLOCK_NODES) else ctx
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            self._on_assign(node, ctx)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self._on_import(node)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            loop = self.loop_tracker.loop_for(node, node.iter)
            self._bind_loop_target(node.target, self.evaluator.evaluate(node.iter))
            child = WalkContext(ctx.loops + (loop,), child.func, child.block_depth)
        elif isinstance(node, ast.While):
            truth = truth_of(self.evaluator.evaluate(node.test))
            if truth is True and _names_in(node.test) & _assigned_in(node.body):
                truth = None  # `while restarts < 5:` with `restarts += 1` in the body: it ends
            loop = Loop(node, infinite=truth is True, bound=None)
            self.loop_tracker.register_loop(loop)
            child = WalkContext(ctx.loops + (loop,), child.func, child.block_depth)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    self._bind_target(item.optional_vars, self.evaluator.evaluate(item.context_expr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.state.env[node.name] = Ref(NO_FLAGS, f"<local>.{node.name}")
            self.state.local_funcs[node.name] = node
            saved = self._bind_params(node, node.name)
            stack.append((saved, ctx, 0))  # runs after the body: the parameters go out of scope
            child = WalkContext((), node.name, child.block_depth)
        elif isinstance(node, ast.ClassDef):
            self._on_class(node)
        elif isinstance(node, ast.If):
            self._narrow_by_guard(node)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            self.state.env[node.name] = UNKNOWN
        elif isinstance(node, ast.Return) and ctx.func is not None and node.value is not None:
            self.state.returns.setdefault(ctx.func, {})[id(node)] = self.evaluator.evaluate(node.value)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            self._on_mutation(node.value)
        return child

    def _enter_expression(self, node: ast.expr, ctx: WalkContext, stack: list[tuple[Any, WalkContext, int]]) -> WalkContext:
        """An expression: a call judged, a walrus bound, a comprehension's own loop, a lambda's returns."""
        if isinstance(node, ast.Call):
            self.judges.on_call(node, ctx)
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            self.state.env[node.target.id] = self.evaluator.evaluate(node.value)
        elif isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
            loop = self.loop_tracker.loop_for(node, node.generators[0].iter if node.generators else None)
            names = [n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)]
            saved = {name: self.state.env.get(name) for name in names}
            for generator in node.generators:  # the calls inside see what the loop variables may be
                self._bind_loop_target(generator.target, self.evaluator.evaluate(generator.iter))

            def restore() -> None:  # a comprehension's variables are its own
                for name, value in saved.items():
                    if value is None:
                        self.state.env.pop(name, None)
                    else:
                        self.state.env[name] = value

            stack.append((restore, ctx, 0))
            return WalkContext(ctx.loops + (loop,), ctx.func, ctx.block_depth)
        elif isinstance(node, ast.Lambda):
            name = lambda_name(node)
            self._bind_params(node, name)
            self.state.returns.setdefault(name, {})[id(node)] = self.evaluator.evaluate(node.body)  # what calling it gives
        return ctx

    def _on_class(self, node: ast.ClassDef) -> None:
        """A class: its name, members and bases learnt; methods of network and HTTP handlers marked (their
        first parameter is the connection); in pass two, its bases judged as an import loader's."""
        self.state.env[node.name] = Ref(NO_FLAGS, f"<local>.{node.name}")
        self.state.classes.add(node.name)
        members = self.state.class_members.setdefault(node.name, set())
        for statement in node.body:
            if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                for target in statement.targets if isinstance(statement, ast.Assign) else [statement.target]:
                    if isinstance(target, ast.Name):
                        self.state.class_attrs.add(target.id)
                        members.add(target.id)
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.state.method_class[id(statement)] = node.name
        bases = [self.evaluator.evaluate(base) for base in node.bases]
        self.state.class_bases[node.name] = bases
        if self.state.pass_no == 2:
            self.opacity.judge_loader_class(node, bases)
        if any(isinstance(b, Ref) and b.qual.startswith(("socketserver.", "asyncio.Protocol", "asyncio.protocols.Protocol", "http.server."))
               for b in bases):
            http = any(isinstance(b, Ref) and b.qual.startswith("http.server.") for b in bases)
            for statement in node.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.state.net_methods.add(id(statement))
                    if http:
                        self.state.http_methods.add(id(statement))

    def _narrow_by_guard(self, node: ast.If) -> None:
        """``if name not in KNOWN: raise`` (or return, continue, break): past the guard, ``name`` is one
        of KNOWN's items; a proof the opacity rule uses (``getattr(builtins, name)`` for a checked name)."""
        test = node.test
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotIn)
                and isinstance(test.left, ast.Name) and node.body and isinstance(node.body[-1], (ast.Raise, ast.Return, ast.Continue, ast.Break))):
            return
        allowed = self.evaluator.evaluate(test.comparators[0])
        items = iterate(allowed)
        if items and len(items) <= MAX_ALTERNATIVES and all(isinstance(item, Str) for item in items):
            self.state.env[test.left.id] = Alternatives(NO_FLAGS, tuple(items))

    _MUTATORS = frozenset({"append", "add", "insert", "extend", "update", "add_attachment", "attach", "set_content", "set_payload",
                           "write", "writestr", "writelines"})

    def _on_mutation(self, call: ast.Call) -> None:
        """``pids.append(child.pid)``, ``msg.add_attachment(data)``: the named container now holds it
        (a list gains the item; anything else takes on its marks)."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in self._MUTATORS and call.args):
            return
        name = func.value.id
        current = self.state.env.get(name)
        if current is None or isinstance(current, Ref):
            return
        added = [self.evaluator.evaluate(a.value if isinstance(a, ast.Starred) else a) for a in call.args]
        if isinstance(current, Seq) and not isinstance(current, DictSeq) and func.attr in ("append", "add", "insert", "extend"):
            item = added[-1]
            new_items = tuple(item.items) if func.attr == "extend" and isinstance(item, Seq) else (item,)
            if len(current.items) + len(new_items) <= 10_000:
                self.state.env[name] = Seq(current.flags, current.items + new_items)
                return
        marks = flags_of(added) - {"obfname", "indirect", "partial", "built", "sockfd"}
        if func.attr in ("write", "writestr", "writelines") and not isinstance(current, (Instance, Unknown)):
            return
        self.state.env[name] = with_flags(current, marks)

    def _bind_params(self, node: ast.AST, name: str) -> Any:
        args = node.args  # type: ignore[attr-defined]
        params = [a.arg for a in [*args.posonlyargs, *args.args]]
        others = [a.arg for a in args.kwonlyargs] + [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        saved = {p: self.state.env.get(p) for p in params + others}
        sites = self.state.sites_read.get(name, [])[:MAX_ALTERNATIVES]
        defaults = dict(zip(params[len(params) - len(args.defaults):], args.defaults)) if args.defaults else {}
        for index, param in enumerate(params):
            options = [site_args[index] for site_args, _ in sites if index < len(site_args)]
            options += [site_kwargs[param] for _, site_kwargs in sites if param in site_kwargs]
            if param in defaults and (not sites or len(options) < len(sites)):
                options.append(self.evaluator.evaluate(defaults[param]))  # a call that leaves it out gets the default
            if index == 0 and id(node) in self.state.http_methods:  # self.path, self.headers, self.rfile: the request's
                options = [Instance(frozenset({"net"}), "http.server.handler")]
            elif index == 0 and id(node) in self.state.net_methods:
                options = [Instance(frozenset({"net", "sockfd"}), "socketserver.handler")]
            elif id(node) in self.state.net_methods and getattr(node, "name", "") in ("data_received", "datagram_received"):
                options = [Unknown(frozenset({"net"}))]
            elif index == 0 and id(node) in self.state.method_class:  # self (cls): an object of the program's own class
                decorators = {d.id for d in getattr(node, "decorator_list", []) if isinstance(d, ast.Name)}
                own = f"<local>.{self.state.method_class[id(node)]}"
                if "staticmethod" not in decorators:
                    options = [Ref(NO_FLAGS, own) if "classmethod" in decorators else Instance(NO_FLAGS, own)]
            # what the call sites pass carries its marks into the body (secrets, network data, a
            # system file's contents...), and "param": it came from a caller, across a function
            kept = tuple(options[:MAX_ALTERNATIVES])
            marks = (flags_of(kept) - {"obfname", "indirect", "partial"}) | {"param"}
            self.state.env[param] = Alternatives(marks, kept) if options else _NO_CALLER
        for param in others:
            self.state.env[param] = UNKNOWN
        if args.vararg is not None and sites:  # *rest: the call sites' extra positional arguments
            extra = [Seq(NO_FLAGS, tuple(site_args[len(params):])) for site_args, _ in sites if len(site_args) > len(params)]
            if extra:
                self.state.env[args.vararg.arg] = Alternatives(flags_of(extra) | {"param"}, tuple(extra))

        def restore() -> None:
            for param, value in saved.items():
                if value is None:
                    self.state.env.pop(param, None)
                else:
                    self.state.env[param] = value

        return restore

    def _bind_target(self, target: ast.AST, value: Value) -> None:
        if isinstance(target, ast.Name):
            self.state.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, Instance) and value.kind == "tuple:socket.accept":
                items: list[Value] = [Instance(frozenset({"sockfd"}), "socket.socket"), UNKNOWN]
            elif isinstance(value, Seq) and len(value.items) == len(target.elts):
                items = list(value.items)
            elif isinstance(value, Alternatives):
                items = [Alternatives(value.flags, tuple(o.items[i] for o in value.options if isinstance(o, Seq) and len(o.items) > i))
                         for i in range(len(target.elts))]
            elif isinstance(value, Opaque):  # the items of an opaque value are opaque
                items = [value for _ in target.elts]
            elif isinstance(value, Instance) and value.kind == "socket.socket":  # reader, writer = open_connection()
                items = [Instance(frozenset({"sockfd", "net"}), "socket.socket") for _ in target.elts]
            else:
                items = [Unknown(value.flags - {"sockfd", "obfname", "indirect"}) for _ in target.elts]
            for element, item in zip(target.elts, items):
                self._bind_target(element.value if isinstance(element, ast.Starred) else element, item)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            # `self.root = root`: kept by attribute name for every object (flow- and class-insensitive)
            known = self.state.attrs.get(target.attr)
            if known is None or known == value:
                self.state.attrs[target.attr] = value
            else:
                options = known.options if isinstance(known, Alternatives) else (known,)
                added = value.options if isinstance(value, Alternatives) else (value,)  # kept flat: Alternatives of Alternatives are opaque
                merged = tuple(dict.fromkeys((*options, *added)))[:MAX_ALTERNATIVES]
                known = tuple(option for option in merged if option != _NO_CALLER)  # a first pass's guess, before the callers were seen
                self.state.attrs[target.attr] = Alternatives(NO_FLAGS, known or merged) if len(known or merged) > 1 else (known or merged)[0]
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            # `found[key] = p.read_text()`: the container now holds it (its marks, not the item)
            current = self.state.env.get(target.value.id)
            marks = flags_of([value]) - {"obfname", "indirect", "partial", "built", "sockfd"}
            if isinstance(current, DictSeq) and isinstance(value, (Code, Opaque)) and len(current.items) < 64:
                # `compiled[name] = compile(...)`: what the dict holds is code (read where it is run)
                self.state.env[target.value.id] = DictSeq(current.flags | marks, current.items + (value,),
                                                    current.keys + (self.evaluator.evaluate(target.slice),))
                return
            if current is not None and not isinstance(current, Ref) and marks:
                self.state.env[target.value.id] = with_flags(current, marks)

    def _on_assign(self, node: ast.AST, ctx: WalkContext) -> None:
        if isinstance(node, ast.AugAssign):
            if not isinstance(node.target, ast.Name):
                return
            name = node.target.id
            current = self.state.env.get(name, UNKNOWN)
            loop = ctx.loops[-1] if ctx.loops else None
            per_item = self.loop_tracker.loop_items(loop) if loop is not None else None
            if per_item is not None:  # s += f(c) for each c of a constant list: fold the whole loop
                var, items = per_item
                saved, memo = self.state.env.get(var), self.state.memo
                self.state.memo = None
                try:
                    for item in items:
                        self.state.env[var] = item
                        current = self.evaluator.binop(node.op, current, self.evaluator.evaluate(node.value))
                finally:
                    self.state.memo = memo
                    if saved is not None:
                        self.state.env[var] = saved
                self.state.env[name] = current
            else:
                self.state.env[name] = self.evaluator.binop(node.op, current, self.evaluator.evaluate(node.value))
            return
        value = self.evaluator.evaluate(node.value) if node.value is not None else UNKNOWN  # type: ignore[attr-defined]
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
        if ctx.loops and len(targets) == 1 and isinstance(targets[0], ast.Name) and node.value is not None \
                and targets[0].id in _names_in(node.value) and climbs_up(value):
            # `top = top.parent` (or os.path.dirname) in a loop: some ancestor, perhaps the top
            value = Instance(value.flags, "pathlib.Path", PLACEHOLDER) if isinstance(value, Instance) else Str(value.flags | {"partial"}, PLACEHOLDER)
        for target in targets:
            self._bind_target(target, value)
            if isinstance(target, ast.Attribute):
                self.opacity.judge_rebinding(target, self.evaluator.evaluate(target.value), value, node.value)  # type: ignore[attr-defined]
        if self.state.pass_no == 2:
            for text in folded_strings(value):
                self.judges.on_text(node, text, ctx, folded=True)

    def _on_import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.state.env[alias.asname] = Ref(NO_FLAGS, canonical(alias.name))
                else:
                    top = alias.name.split(".")[0]
                    self.state.env[top] = Ref(NO_FLAGS, canonical(top))
                if self.state.pass_no == 2:
                    self.execution.check_package(node, alias.name)
            return
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name == "*":
                if module not in self.state.star_modules:
                    self.state.star_modules.append(module)
                continue
            self.state.env[alias.asname or alias.name] = Ref(NO_FLAGS, canonical(f"{module}.{alias.name}"))
        if self.state.pass_no == 2 and node.level == 0 and node.module:
            self.execution.check_package(node, node.module)

    def _bind_loop_target(self, target: ast.AST, iterated: Value) -> None:
        items = iterate(iterated)
        if items is None and isinstance(iterated, Alternatives):  # `for d in args.dirs` (given or the default list)
            items = [item for option in iterated.options for item in (iterate(option) or [])] or None
        kept = tuple(items[:MAX_ALTERNATIVES]) if items else ()
        self._bind_target(target, Alternatives(flags_of(kept) - {"sockfd", "obfname", "indirect"}, kept) if items else iter_value(iterated))
