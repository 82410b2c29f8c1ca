"""One analysis of one program: the composition root of the analysis' objects (the evaluator, the
loop tracker, the judges and the walker, each handed one AnalysisState), the order of the passes,
and the rules over the whole program (a fork in an endless loop, secrets read and sent, ...).
"""

from __future__ import annotations

import ast

from ..policy import ThreatList
from ..sensitive_paths import SensitivePaths
from .evaluator import ExpressionEvaluator
from .execution_judges import ExecutionJudges
from .judges import CallJudges
from .loops import LoopTracker
from .resource_judges import ResourceJudges
from .state import AnalysisState
from .values import Value
from .walker import TreeWalker


class ProgramAnalysis:
    """One run over one tree. Two ordered passes: the first learns names, the second judges; then the
    rules that need two things to happen in one program. What the run found is in ``state``."""

    def __init__(self, threats: ThreatList, depth: int = 0, paths: SensitivePaths | None = None) -> None:
        self.state = state = AnalysisState(threats, depth, paths)
        evaluator = ExpressionEvaluator(state)
        resources = ResourceJudges(state)
        execution = ExecutionJudges(state, resources, self._analyse_nested)
        judges = CallJudges(state, evaluator, resources, execution)
        self.walker = TreeWalker(state, evaluator, LoopTracker(state, evaluator), judges)
        self.acting: list[ast.stmt] | None = None  # a list: the top-level statements that establish facts (``learned``)

    def run(self, tree: ast.AST) -> None:
        state = self.state
        state.tree = tree
        state.pass_no = 1
        self._walk(tree)
        if state.opaque_seen and state.call_sites:
            # Something looked opaque while functions were read before their callers: learn once more
            # with every call site known, so that a parameter is what its callers pass.
            state.sites_read, state.call_sites = state.call_sites, {}
            state.env, state.star_modules = dict(state.inherited_env), []
            self._walk(tree)
            state.sites_read = state.call_sites
        self._close_function_summaries()
        state.pass_no = 2
        state.memo = {}
        state.loops = []
        self._walk(tree)
        self._program_rules()

    def _walk(self, tree: ast.AST) -> None:
        """One pass; asked for the acting statements, a module's top-level statements one at a time
        (the same order and the same context as one walk of the module), noting each that adds to
        what the program has established (AnalysisState.learned) in any pass."""
        if self.acting is None or not isinstance(tree, ast.Module):
            self.walker.walk(tree)
            return
        for statement in tree.body:
            before = self.state.learned()
            self.walker.walk(statement)
            if self.state.learned() != before and statement not in self.acting:
                self.acting.append(statement)

    def _analyse_nested(self, tree: ast.AST, imports: dict[str, Value]) -> AnalysisState:
        """Code the program runs (exec, eval, compile), analysed in turn, seeing the program's imports."""
        nested = ProgramAnalysis(self.state.threats, self.state.depth + 1, self.state.paths)
        nested.state.deadline = self.state.deadline
        nested.state.inherited_env = imports
        nested.state.env = dict(imports)
        nested.run(tree)
        return nested.state

    def _close_function_summaries(self) -> None:
        changed = True
        rounds = 0
        while changed and rounds < 20:
            changed, rounds = False, rounds + 1
            for caller, callees in self.state.func_calls.items():
                for callee in callees:
                    extra = self.state.func_kinds.get(callee, set()) - self.state.func_kinds.get(caller, set())
                    if extra:
                        self.state.func_kinds.setdefault(caller, set()).update(extra)
                        changed = True

    def _recursive(self, name: str) -> bool:
        seen, todo = set(), list(self.state.func_calls.get(name, ()))
        while todo:
            callee = todo.pop()
            if callee == name:
                return True
            if callee not in seen:
                seen.add(callee)
                todo.extend(self.state.func_calls.get(callee, ()))
        return False

    def _program_rules(self) -> None:
        for loop in self.state.loops:
            kinds = loop.kinds
            unbounded = loop.infinite or (isinstance(loop.node, ast.While) and not kinds & {"accept"})
            if "fork" in kinds and (loop.infinite or isinstance(loop.node, ast.While)) and "accept" not in kinds:
                self.state.hit("fork-bomb", loop.node, "forks inside an endless loop: the processes multiply until the machine stops")
            elif "fork" in kinds and isinstance(loop.node, ast.While):
                self.state.hit("process-fork", loop.node, "forks once per accepted connection", "MEDIUM")
            if "spawn" in kinds and unbounded and loop.infinite and "wait" not in kinds:
                self.state.hit("fork-bomb", loop.node, "starts processes in an endless loop without waiting for them")
            if "recv" in kinds and "exec" in kinds:
                self.state.hit("remote-command-exec", loop.node, "a loop receives data over the network and runs commands: a remote control channel",
                               "MEDIUM")
            if loop.sweep and "delete" in kinds:
                self.state.hit("destructive-wipe", loop.node, f"walks {loop.sweep} and deletes or overwrites what it finds")
            elif loop.sweep and kinds & {"rewrite", "move"}:
                self.state.hit("destructive-wipe", loop.node, f"walks {loop.sweep} and rewrites or renames what it finds")
            elif (loop.outside or loop.sweep) and "encrypt" in kinds and "outwrite" in kinds:
                self.state.hit("destructive-sweep", loop.node, f"walks {loop.outside or loop.sweep} and encrypts the files it finds "
                               "(ransomware)")
            elif loop.outside and "rewrite" in kinds:
                self.state.hit("destructive-sweep", loop.node, f"walks {loop.outside} and rewrites each file it finds in place "
                               "(encrypting or corrupting them)")
            elif (loop.outside or loop.sweep) and any("rewrite" in self.state.func_kinds.get(name, ()) for name in self.state.handed):
                self.state.hit("destructive-sweep", loop.node, f"walks {loop.outside or loop.sweep} and hands what it finds to a "
                               "function that rewrites files in place")
        for name, kinds in self.state.func_kinds.items():
            if "fork" in kinds and self._recursive(name):
                node = self.state.local_funcs.get(name)
                self.state.hit("fork-bomb", node, f"`{name}` forks and calls itself, multiplying processes without end")
        if self.state.secret_reads and self.state.net_sends:
            node, label = self.state.secret_reads[0]
            self.state.hit("exfiltration", node, f"reads {label} and the program also sends data over the network", "MEDIUM")
        elif self.state.sensitive_reads and self.state.net_uses and not self.state.secret_reads:
            # Opacity of a flow: what it read may be what it sends, and the analysis does not see the path between.
            node, label = self.state.sensitive_reads[0]
            self.state.hit("send-system-file", node, f"reads {label} and the program also uses the network: it may send what it read; "
                           "a person must read it", "MEDIUM")
        if self.state.socket_connects and self.state.shell_spawns:
            self.state.hit("reverse-shell", self.state.shell_spawns[0], "starts an interactive shell in a program that connects a socket", "MEDIUM")
        if self.state.security_names and self.state.kill_calls:
            self.state.hit("disable-security", self.state.kill_calls[0], "kills processes and names security tooling: it is switching protection off",
                           "MEDIUM")
        if self.state.clipboard and self.state.wallet_texts:
            self.state.hit("clipboard-hijack", self.state.clipboard[0], "reads or replaces the clipboard and holds cryptocurrency wallet addresses")
        if self.state.native:
            self.state.hit("native-code", self.state.native[0], "loads or calls native code through ctypes/cffi")
            if self.state.exec_memory_names:
                self.state.hit("shellcode-loader", self.state.exec_memory_names[0], "maps executable memory and calls into it: a shellcode loader")
        hit_lines = {(h.rule, h.line) for h in self.state.hits}
        for node, found in self.state.deferred_text:
            if (found.rule, getattr(node, "lineno", 0)) in hit_lines:
                continue
            if self.state.command_sinks or found.rule in ("reverse-shell", "crypto-miner", "fork-bomb"):
                self.state.hit(found.rule, node, f"{found.detail} (in text the program can run)", "MEDIUM")
            else:
                self.state.hit("dangerous-command-text", node, f"holds a dangerous command: {found.detail}", "MEDIUM")
