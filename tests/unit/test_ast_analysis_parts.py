"""The AST analysis' objects used alone, each with the state it is handed and fakes for its
collaborators (docs/decisions/0039-ast-analysis-as-objects.md): an evaluator with nothing but a
state, judges with nothing but a state and the nested analysis they are given."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from mai_safety.infrastructure.analysis.ast.calls import CallEvaluator
from mai_safety.infrastructure.analysis.ast.evaluator import ExpressionEvaluator
from mai_safety.infrastructure.analysis.ast.execution_judges import ExecutionJudges
from mai_safety.infrastructure.analysis.ast.folding import ConstantFolder
from mai_safety.infrastructure.analysis.ast.judges import CallJudges
from mai_safety.infrastructure.analysis.ast.loops import LoopTracker
from mai_safety.infrastructure.analysis.ast.opacity import OpacityResolver
from mai_safety.infrastructure.analysis.ast.opacity_judges import OpacityJudges
from mai_safety.infrastructure.analysis.ast.operations import OperationEvaluator
from mai_safety.infrastructure.analysis.ast.program import ProgramAnalysis
from mai_safety.infrastructure.analysis.ast.resource_judges import ResourceJudges
from mai_safety.infrastructure.analysis.ast.roles import Evaluates
from mai_safety.infrastructure.analysis.ast.commands import PLACEHOLDER
from mai_safety.infrastructure.analysis.ast.state import AnalysisState, Hit, WalkContext
from mai_safety.infrastructure.analysis.ast.values import NO_FLAGS, Ref, Str, Value
from mai_safety.infrastructure.analysis.ast.walker import TreeWalker
from mai_safety.infrastructure.analysis.policy import ThreatList


def a_state(pass_no: int = 2) -> AnalysisState:
    state = AnalysisState(ThreatList(Path("threats.yaml")))
    state.pass_no = pass_no
    return state


def expression(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def call(text: str) -> ast.Call:
    node = expression(text)
    assert isinstance(node, ast.Call)
    return node


def no_nested_analysis(tree: ast.AST, imports: dict[str, Value]) -> list[Hit]:
    raise AssertionError("this judgement needs no nested analysis")


def test_the_evaluator_alone_folds_a_string_built_from_pieces() -> None:
    value = ExpressionEvaluator(a_state()).evaluate(expression("'sys' + 'tem'"))
    assert isinstance(value, Str) and value.value == "system" and "built" in value.flags


def test_the_evaluator_alone_resolves_a_function_reached_through_import_and_getattr() -> None:
    value = ExpressionEvaluator(a_state()).evaluate(expression("getattr(__import__('o' + 's'), 'sys' + 'tem')"))
    assert isinstance(value, Ref) and value.qual == "os.system" and "obfname" in value.flags


def test_the_evaluator_reads_names_from_the_state_it_is_handed() -> None:
    state = a_state()
    state.env["run"] = Ref(NO_FLAGS, "subprocess.run")
    evaluator = ExpressionEvaluator(state)
    assert evaluator.evaluate(expression("run")) == Ref(NO_FLAGS, "subprocess.run")
    assert evaluator.evaluate(expression("unbound")).flags == NO_FLAGS  # nothing else is known


def test_a_command_judge_alone_reports_into_the_state_it_is_handed() -> None:
    state = a_state()
    judges = ExecutionJudges(state, ResourceJudges(state), no_nested_analysis)
    judges.judge_command(call("os.system('rm -rf /')"), "os.system", [Str(NO_FLAGS, "rm -rf /")], {}, WalkContext())
    assert "destructive-wipe" in {found.rule for found in state.hits}


def test_a_judge_reports_nothing_in_the_first_pass_which_only_learns_names() -> None:
    state = a_state(pass_no=1)
    judges = ExecutionJudges(state, ResourceJudges(state), no_nested_analysis)
    judges.judge_command(call("os.system('rm -rf /')"), "os.system", [Str(NO_FLAGS, "rm -rf /")], {}, WalkContext())
    assert state.hits == []


def test_the_code_judge_hands_executed_code_and_the_programs_imports_to_the_nested_analysis_it_was_given() -> None:
    asked: list[tuple[str, dict[str, Value]]] = []

    def nested_analysis(tree: ast.AST, imports: dict[str, Value]) -> AnalysisState:
        asked.append((ast.unparse(tree), imports))
        nested = a_state()
        nested.hits.append(Hit("reverse-shell", 1, 0, "starts an interactive shell"))
        return nested

    state = a_state()
    state.env.update({"os": Ref(NO_FLAGS, "os"), "count": Str(NO_FLAGS, "3")})
    judges = ExecutionJudges(state, ResourceJudges(state), nested_analysis)
    payload = Str(frozenset({"built"}), "import pty; pty.spawn('/bin/sh')")
    judges.judge_code_exec(call("exec(code)"), "builtins.exec", payload, WalkContext())
    assert asked == [("import pty\npty.spawn('/bin/sh')", {"os": Ref(NO_FLAGS, "os")})]  # imports only, not other names
    assert any(found.rule == "reverse-shell" and found.detail.startswith("in the code passed to exec()") for found in state.hits)


def test_what_code_run_by_exec_binds_is_handed_back_but_not_its_own_functions_nor_the_imports_it_was_given() -> None:
    def nested_analysis(tree: ast.AST, imports: dict[str, Value]) -> AnalysisState:
        nested = a_state()
        nested.env.update(imports)
        nested.env.update({"w": Ref(NO_FLAGS, "os"), "f": Ref(NO_FLAGS, "<local>.f"), "n": Str(NO_FLAGS, "1")})
        return nested

    state = a_state()
    state.env["os"] = Ref(NO_FLAGS, "os")
    judges = ExecutionJudges(state, ResourceJudges(state), nested_analysis)
    assert judges.names_bound_by(Str(NO_FLAGS, "import os as w")) == {"w": Ref(NO_FLAGS, "os"), "n": Str(NO_FLAGS, "1")}
    assert judges.names_bound_by(Str(NO_FLAGS, f"import {PLACEHOLDER}")) == {}  # text not known whole: nothing is asked


@pytest.mark.parametrize("part", [ExpressionEvaluator, OperationEvaluator, CallEvaluator, ConstantFolder, OpacityResolver, LoopTracker,
                                  CallJudges, ExecutionJudges, ResourceJudges, OpacityJudges, TreeWalker, ProgramAnalysis])
def test_each_part_of_the_analysis_is_an_object_of_its_own_not_a_mixin_over_the_state(part: type) -> None:
    assert part.__mro__ == (part, object)


def test_the_evaluator_offers_each_method_of_the_door_the_other_parts_hold_it_by() -> None:
    door = [name for name, member in vars(Evaluates).items() if callable(member) and not name.startswith("_")]
    assert len(door) == 8
    for name in door:
        assert inspect.signature(getattr(ExpressionEvaluator, name)) == inspect.signature(getattr(Evaluates, name)), name
