"""One analysis of one program: the evaluator, the walker and the judges put together, and the rules
over the whole program (a fork in an endless loop, secrets read and sent, ...).
"""

from __future__ import annotations

import ast

from .calls import CallEvaluator
from .evaluator import ExpressionEvaluator
from .execution_judges import ExecutionJudges
from .folding import ConstantFolder
from .judges import CallJudges
from .loops import LoopTracker
from .opacity import OpacityJudges
from .operations import OperationEvaluator
from .resource_judges import ResourceJudges
from .walker import TreeWalker


class ProgramAnalysis(
    TreeWalker, LoopTracker, CallJudges, ExecutionJudges, ResourceJudges, OpacityJudges, CallEvaluator, ConstantFolder,
    ExpressionEvaluator, OperationEvaluator,
):
    """One run over one tree. Two ordered passes: the first learns names, the second judges; then the
    rules that need two things to happen in one program."""

    def _close_function_summaries(self) -> None:
        changed = True
        rounds = 0
        while changed and rounds < 20:
            changed, rounds = False, rounds + 1
            for caller, callees in self.func_calls.items():
                for callee in callees:
                    extra = self.func_kinds.get(callee, set()) - self.func_kinds.get(caller, set())
                    if extra:
                        self.func_kinds.setdefault(caller, set()).update(extra)
                        changed = True

    def _recursive(self, name: str) -> bool:
        seen, todo = set(), list(self.func_calls.get(name, ()))
        while todo:
            callee = todo.pop()
            if callee == name:
                return True
            if callee not in seen:
                seen.add(callee)
                todo.extend(self.func_calls.get(callee, ()))
        return False

    def _program_rules(self) -> None:
        for loop in self.loops:
            kinds = loop.kinds
            unbounded = loop.infinite or (isinstance(loop.node, ast.While) and not kinds & {"accept"})
            if "fork" in kinds and (loop.infinite or isinstance(loop.node, ast.While)) and "accept" not in kinds:
                self.hit("fork-bomb", loop.node, "forks inside an endless loop: the processes multiply until the machine stops")
            elif "fork" in kinds and isinstance(loop.node, ast.While):
                self.hit("process-fork", loop.node, "forks once per accepted connection", "MEDIUM")
            if "spawn" in kinds and unbounded and loop.infinite and "wait" not in kinds:
                self.hit("fork-bomb", loop.node, "starts processes in an endless loop without waiting for them")
            if "recv" in kinds and "exec" in kinds:
                self.hit("remote-command-exec", loop.node, "a loop receives data over the network and runs commands: a remote control channel",
                         "MEDIUM")
            if loop.sweep and "delete" in kinds:
                self.hit("destructive-wipe", loop.node, f"walks {loop.sweep} and deletes or overwrites what it finds")
            elif loop.sweep and kinds & {"rewrite", "move"}:
                self.hit("destructive-wipe", loop.node, f"walks {loop.sweep} and rewrites or renames what it finds")
            elif (loop.outside or loop.sweep) and "encrypt" in kinds and "outwrite" in kinds:
                self.hit("destructive-sweep", loop.node, f"walks {loop.outside or loop.sweep} and encrypts the files it finds "
                         "(ransomware)")
            elif loop.outside and "rewrite" in kinds:
                self.hit("destructive-sweep", loop.node, f"walks {loop.outside} and rewrites each file it finds in place "
                         "(encrypting or corrupting them)")
            elif (loop.outside or loop.sweep) and any("rewrite" in self.func_kinds.get(name, ()) for name in self.handed):
                self.hit("destructive-sweep", loop.node, f"walks {loop.outside or loop.sweep} and hands what it finds to a "
                         "function that rewrites files in place")
        for name, kinds in self.func_kinds.items():
            if "fork" in kinds and self._recursive(name):
                node = self.local_funcs.get(name)
                self.hit("fork-bomb", node, f"`{name}` forks and calls itself, multiplying processes without end")
        if self.secret_reads and self.net_sends:
            node, label = self.secret_reads[0]
            self.hit("exfiltration", node, f"reads {label} and the program also sends data over the network", "MEDIUM")
        if self.socket_connects and self.shell_spawns:
            self.hit("reverse-shell", self.shell_spawns[0], "starts an interactive shell in a program that connects a socket", "MEDIUM")
        if self.security_names and self.kill_calls:
            self.hit("disable-security", self.kill_calls[0], "kills processes and names security tooling: it is switching protection off",
                     "MEDIUM")
        if self.clipboard and self.wallet_texts:
            self.hit("clipboard-hijack", self.clipboard[0], "reads or replaces the clipboard and holds cryptocurrency wallet addresses")
        if self.native:
            self.hit("native-code", self.native[0], "loads or calls native code through ctypes/cffi")
            if self.exec_memory_names:
                self.hit("shellcode-loader", self.exec_memory_names[0], "maps executable memory and calls into it: a shellcode loader")
        hit_lines = {(h.rule, h.line) for h in self.hits}
        for node, found in self.deferred_text:
            if (found.rule, getattr(node, "lineno", 0)) in hit_lines:
                continue
            if self.command_sinks or found.rule in ("reverse-shell", "crypto-miner", "fork-bomb"):
                self.hit(found.rule, node, f"{found.detail} (in text the program can run)", "MEDIUM")
            else:
                self.hit("dangerous-command-text", node, f"holds a dangerous command: {found.detail}", "MEDIUM")
