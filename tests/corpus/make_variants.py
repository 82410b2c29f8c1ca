"""Writes obfuscated variants of every BLOCKED example in risky/ into obfuscated/.

    .venv/bin/python tests/corpus/make_variants.py

Each example gets three variants, each hiding it a different way:

  alias+concat    modules and imported names are aliased (import os as _m0, from x import y as _f0)
                  and every string is built by concatenating pieces ('rm -r' + 'f /')
  encode+getattr  modules are imported with __import__ and every call on a name goes through
                  getattr, both with names decoded at run time; every string is encoded (base64,
                  hex, character codes, reversal, rot13, join of characters, in turn)
  exec-wrapped    the whole program is zlib-compressed, base64-encoded and exec'd

The variants are deterministic, so re-running this script rewrites the same files.
"""

from __future__ import annotations

import ast
import base64
import codecs
import shutil
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.corpus.labels import CORPUS, load  # noqa: E402


def _pieces(text: str) -> list[str]:
    if len(text) < 2:
        return [text]
    size = max(1, len(text) // 3)
    return [text[i : i + size] for i in range(0, len(text), size)]


class _Strings(ast.NodeTransformer):
    """Replaces string constants (not docstrings, not inside f-strings) by an expression."""

    def __init__(self, make) -> None:
        self.make = make

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node  # a docstring
        return self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str) and len(node.value) >= 2:
            return ast.copy_location(self.make(node.value), node)
        return node


def _concat(text: str) -> ast.expr:
    parts = [ast.Constant(p) for p in _pieces(text)]
    expr: ast.expr = parts[0]
    for part in parts[1:]:
        expr = ast.BinOp(expr, ast.Add(), part)
    return expr


class _Encoder:
    """Encodes strings a different way each time it is called."""

    def __init__(self) -> None:
        self.turn = 0

    def __call__(self, text: str) -> ast.expr:
        self.turn += 1
        kind = self.turn % 6 if len(text) <= 300 else 0
        if kind == 0:
            code = f"__import__('base64').b64decode({base64.b64encode(text.encode()).decode()!r}).decode()"
        elif kind == 1:
            code = f"bytes.fromhex({text.encode().hex()!r}).decode()"
        elif kind == 2:
            code = f"''.join(map(chr, {[ord(c) for c in text]!r}))"
        elif kind == 3:
            code = f"{text[::-1]!r}[::-1]"
        elif kind == 4:
            code = f"__import__('codecs').decode({codecs.encode(text, 'rot13')!r}, 'rot13')"
        else:
            code = f"''.join({list(text)!r})"
        return ast.parse(code, mode="eval").body


class _Alias(ast.NodeTransformer):
    def __init__(self) -> None:
        self.renames: dict[str, str] = {}

    def visit_Import(self, node: ast.Import) -> ast.AST:
        for alias in node.names:
            if alias.asname is None and "." not in alias.name:
                alias.asname = self.renames.setdefault(alias.name, f"_m{len(self.renames)}")
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        if node.module == "__future__":
            return node
        for alias in node.names:
            if alias.name != "*" and alias.asname is None:
                alias.asname = self.renames.setdefault(alias.name, f"_f{len(self.renames)}")
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.renames:
            node.id = self.renames[node.id]
        return node


class _Indirect(ast.NodeTransformer):
    """Imports through __import__ and calls through getattr, with encoded names."""

    def __init__(self, encode) -> None:
        self.encode = encode

    def _import(self, name: str, submodule: bool) -> ast.expr:
        call = ast.Call(ast.Name("__import__", ast.Load()), [self.encode(name)], [])
        if submodule:
            call.keywords.append(ast.keyword("fromlist", ast.List([ast.Constant("_")], ast.Load())))
        return call

    def visit_Import(self, node: ast.Import) -> list[ast.stmt]:
        out = []
        for alias in node.names:
            target = alias.asname or alias.name.split(".")[0]
            value = self._import(alias.name, submodule=alias.asname is not None and "." in alias.name)
            out.append(ast.copy_location(ast.Assign([ast.Name(target, ast.Store())], value), node))
        return out

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST | list[ast.stmt]:
        if node.module in (None, "__future__") or node.level or any(a.name == "*" for a in node.names):
            return node
        out = []
        for alias in node.names:
            value = ast.Call(ast.Name("getattr", ast.Load()), [self._import(node.module, True), self.encode(alias.name)], [])
            out.append(ast.copy_location(ast.Assign([ast.Name(alias.asname or alias.name, ast.Store())], value), node))
        return out

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and not node.func.attr.startswith("__"):
            node.func = ast.Call(ast.Name("getattr", ast.Load()), [node.func.value, self.encode(node.func.attr)], [])
        return node


def alias_concat(source: str) -> str:
    tree = _Strings(_concat).visit(ast.parse(source))
    tree = _Alias().visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


def encode_getattr(source: str) -> str:
    encoder = _Encoder()
    tree = _Strings(encoder).visit(ast.parse(source))
    tree = _Indirect(encoder).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


def exec_wrapped(source: str) -> str:
    blob = base64.b64encode(zlib.compress(source.encode())).decode()
    return f"import base64, zlib\nexec(zlib.decompress(base64.b64decode({blob!r})))\n"


TECHNIQUES = {"alias+concat": alias_concat, "encode+getattr": encode_getattr, "exec-wrapped": exec_wrapped}


def main() -> int:
    target = CORPUS / "obfuscated"
    shutil.rmtree(target, ignore_errors=True)
    count = 0
    for example in load("risky"):
        if example.expect != "BLOCKED":
            continue
        body = "\n".join(line for line in example.code.splitlines() if not line.startswith("# expect:"))
        for technique, transform in TECHNIQUES.items():
            variant = transform(body)
            compile(variant, example.name, "exec")  # a variant must still be Python
            header = (f"# expect: BLOCKED category: {example.category} variant-of: {example.name} "
                      f"technique: {technique}\n")
            path = target / example.category / f"{example.path.stem}__{technique.replace('+', '_').replace('-', '_')}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(header + variant.rstrip("\n") + "\n", encoding="utf-8")
            count += 1
    print(f"wrote {count} variants to {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
