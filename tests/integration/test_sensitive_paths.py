"""The sensitive-path model (policies/sensitive_paths.yaml): what it rates, how paths are
normalised before they are matched, how it is validated, and the regular expressions it gives
Semgrep's taint rules."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.levels import RiskLevel
from mai_safety.infrastructure.analysis.policy import load_analysis_policy
from mai_safety.infrastructure.analysis.sensitive_paths import UNKNOWN_PART, path_forms

POLICIES = Path(__file__).resolve().parents[2] / "policies"


@pytest.fixture(scope="module")
def model():
    return load_analysis_policy(POLICIES).paths


@pytest.fixture
def policies_copy(tmp_path: Path) -> Path:
    target = tmp_path / "policies"
    shutil.copytree(POLICIES, target)
    return target


def rewrite_model(folder: Path, change) -> None:
    path = folder / "sensitive_paths.yaml"
    document = yaml.safe_load(path.read_text())
    change(document)
    path.write_text(yaml.safe_dump(document, sort_keys=False))


RATINGS = [
    ("/etc/passwd", "read", RiskLevel.MEDIUM), ("/etc/passwd", "write", RiskLevel.BLOCKED),
    ("/etc/shadow", "read", RiskLevel.HIGH), ("/etc/gshadow", "read", RiskLevel.HIGH),
    ("/etc/security/limits.conf", "read", RiskLevel.MEDIUM), ("/etc/security", "list", RiskLevel.MEDIUM),
    ("/etc/ssh/sshd_config", "read", RiskLevel.MEDIUM), ("/etc/ssh/ssh_host_rsa_key", "read", RiskLevel.HIGH),
    ("/etc/pam.d", "list", RiskLevel.MEDIUM), ("/var/lib/pam/auth", "read", RiskLevel.MEDIUM),
    ("/root/.bashrc", "read", RiskLevel.MEDIUM), ("/root", "list", RiskLevel.MEDIUM),
    ("/proc/1/cmdline", "read", RiskLevel.MEDIUM), ("/proc/1234/environ", "read", RiskLevel.HIGH),
    ("/sys/kernel/vmcoreinfo", "read", RiskLevel.MEDIUM), ("/var/log/auth.log", "read", RiskLevel.MEDIUM),
    ("/var/log/auth.log", "delete", RiskLevel.BLOCKED), ("~/.bashrc", "write", RiskLevel.HIGH),
    ("~/.aws/credentials", "read", RiskLevel.HIGH), ("/proc/cpuinfo", "read", RiskLevel.MEDIUM),
    ("/proc/self/status", "read", RiskLevel.LOW), ("/dev/null", "read", RiskLevel.LOW), ("/tmp/x.csv", "read", RiskLevel.LOW),
    ("/usr/lib/python3/dist-packages/zz.pth", "write", RiskLevel.HIGH), ("~/.local/lib/python3.11/site-packages/x.pth", "write", RiskLevel.HIGH),
    (UNKNOWN_PART + "/sitecustomize.py", "write", RiskLevel.HIGH), ("~/src/app/.git/hooks/post-merge", "write", RiskLevel.HIGH),
    ("~/code/site/.vscode/tasks.json", "write", RiskLevel.HIGH), ("~/.ssh/config", "read", RiskLevel.MEDIUM),
    ("~/.ssh/known_hosts", "read", RiskLevel.MEDIUM), ("~/.ssh/config", "write", RiskLevel.HIGH),
]


@pytest.mark.parametrize("path", ["checkpoints/model.pth", ".git/hooks/pre-commit", ".vscode/tasks.json"])
def test_the_programs_own_project_files_are_not_start_up_hooks(model, path):
    assert model.rate(path, "write") is None


@pytest.mark.parametrize("path, operation, level", RATINGS, ids=[f"{o}:{p}" for p, o, _ in RATINGS])
def test_the_shipped_model_rates_each_operation_on_the_paths_of_the_issue(model, path, operation, level):
    rating = model.rate(path, operation)
    assert rating is not None and rating.level is level, rating


def test_harmless_system_information_is_never_rated_above_medium(model):
    for path in ("/proc/cpuinfo", "/proc/meminfo", "/proc/loadavg", "/proc/uptime", "/sys/class/thermal/thermal_zone0/temp"):
        assert model.rate(path, "read").level <= RiskLevel.MEDIUM, path


def test_a_file_in_the_working_directory_or_the_home_folder_is_not_rated(model):
    for path in ("report.pdf", "data/input.csv", "~/notes.txt", "/home/alice/Documents/cv.odt"):
        assert model.rate(path, "read") is None, path


NORMAL_FORMS = {
    "/usr/../etc/shadow": "/etc/shadow",
    "//etc//passwd": "/etc/passwd",
    "/var/www/html/../../../etc/group": "/etc/group",
    "../../../../etc/passwd": "/etc/passwd",
    UNKNOWN_PART + "/../etc/passwd": "/etc/passwd",
    "/home/bob/.ssh/id_rsa": "~/.ssh/id_rsa",
    "$HOME/.aws/credentials": "~/.aws/credentials",
    "~alice/.netrc": "~/.netrc",
}


@pytest.mark.parametrize("spelled, normal", NORMAL_FORMS.items(), ids=NORMAL_FORMS.keys())
def test_paths_are_normalised_before_they_are_matched(spelled, normal):
    assert path_forms(spelled)[0] == normal


def test_roots_home_is_matched_as_itself_and_as_the_home_folder(model):
    assert path_forms("/root/.ssh/id_rsa") == ["/root/.ssh/id_rsa", "~/.ssh/id_rsa"]
    assert model.rate("/root/.ssh/id_rsa", "read").secret
    assert model.rate("/root/.profile", "read").name == "root's home"


def test_an_unknown_folder_before_a_credential_path_is_read_as_the_home_folder(model):
    assert model.secret(UNKNOWN_PART + "/.aws/credentials")


def test_a_home_reached_from_an_unknown_ancestor_or_by_climbing_is_a_home(model):
    assert model.secret(UNKNOWN_PART + "/home/ann/.aws/credentials")
    assert model.secret("../../../home/ann/.ssh/id_ed25519")
    assert path_forms("/home")[0] == "/home"


def test_a_write_under_an_unknown_folder_is_not_taken_for_a_write_to_the_system(model):
    assert model.rate(UNKNOWN_PART + "/etc/passwd", "write") is None
    assert model.rate(UNKNOWN_PART + "/etc/passwd", "read").level is RiskLevel.MEDIUM


def test_the_first_entry_that_rates_an_operation_wins(model):
    # authorised keys are readable at MEDIUM although the later SSH-keys entry rates reads HIGH
    assert model.rate("~/.ssh/authorized_keys", "read").level is RiskLevel.MEDIUM
    assert model.rate("~/.ssh/authorized_keys", "write").level is RiskLevel.BLOCKED
    assert model.rate("~/.ssh/id_ed25519", "read").level is RiskLevel.HIGH


SPELLINGS = {
    "secret": (["/etc/shadow", "/var/www/../../etc/shadow", "~/.ssh/id_rsa", "/home/u/.aws/credentials", "$HOME/.netrc",
                "/proc/self/environ", "keys/id_ed25519"],
               ["/etc/passwd", "~/.ssh/authorized_keys", "/proc/cpuinfo", "report.pdf"]),
    "sensitive": (["/etc/passwd", "../../etc/group", "/root/.bashrc", "/var/log/syslog", "/etc/shadow"],
                  ["/proc/cpuinfo", "/tmp/x", "/etc/os-release", "notes.txt"]),
    "outside": (["/etc/passwd", "/proc/cpuinfo", "/opt/app/data.db", "../../../etc/hosts", "/root/.profile", "/home/u/report.pdf",
                 "~/Documents/cv.odt"],
                ["/tmp/out.csv", "/dev/null", "report.pdf", "data/in.csv", "/etc/shadow", "/proc/self/status"]),
    "startup": (["~/.bashrc", "/root/.zshrc", "$HOME/.profile", "/etc/profile.d/x.sh"], ["~/.bash_history", "/etc/passwd"]),
}


@pytest.mark.parametrize("kind", SPELLINGS, ids=SPELLINGS)
def test_the_regular_expressions_for_semgrep_match_the_spellings_the_model_means(model, kind):
    expression = re.compile(model.semgrep_regex(kind))
    matching, other = SPELLINGS[kind]
    assert [p for p in matching if not expression.match(p)] == []
    assert [p for p in other if expression.match(p)] == []


def test_every_semgrep_rule_that_names_a_kind_of_path_gets_the_models_expression(policies_copy):
    documents = load_analysis_policy(policies_copy).semgrep.rule_documents
    assert "<<paths:" not in yaml.safe_dump(list(documents))
    assert any("etc/shadow" in yaml.safe_dump(document) for document in documents if document["id"] == "exfiltrate-secret-file")


def test_an_unknown_kind_of_path_in_a_rule_names_the_rule_file_and_the_kinds(policies_copy):
    rules = policies_copy / "semgrep" / "file_flows.yaml"
    rules.write_text(rules.read_text().replace("<<paths:outside>>", "<<paths:elsewhere>>"))
    with pytest.raises(ConfigurationError, match=r"file_flows\.yaml: rule send-system-file: <<paths:elsewhere>> .*secret, sensitive"):
        load_analysis_policy(policies_copy)


def test_a_misspelt_level_names_the_file_the_key_and_what_was_expected(policies_copy):
    rewrite_model(policies_copy, lambda d: d["entries"][0].update(read="HIHG"))
    with pytest.raises(ConfigurationError, match=r"sensitive_paths\.yaml: key entries\.0\.read: .*'LOW'.*got 'HIHG'"):
        load_analysis_policy(policies_copy)


def test_a_relative_path_in_the_model_is_refused(policies_copy):
    rewrite_model(policies_copy, lambda d: d["entries"][0]["paths"].append("etc/passwd"))
    with pytest.raises(ConfigurationError, match=r"sensitive_paths\.yaml: key entries\.0\.paths: .*must start with /"):
        load_analysis_policy(policies_copy)


def test_an_entry_without_any_level_is_refused(policies_copy):
    rewrite_model(policies_copy, lambda d: d["entries"].append({"name": "nothing", "paths": ["/srv/x"]}))
    with pytest.raises(ConfigurationError, match=r"sensitive_paths\.yaml: key entries\.\d+: .*gives no level"):
        load_analysis_policy(policies_copy)


def test_a_secret_entry_must_rate_reading_at_least_high(policies_copy):
    rewrite_model(policies_copy, lambda d: d["entries"].append({"name": "x", "paths": ["/srv/key"], "secret": True, "read": "MEDIUM"}))
    with pytest.raises(ConfigurationError, match=r"sensitive_paths\.yaml: key entries\.\d+: .*secret.*HIGH or BLOCKED"):
        load_analysis_policy(policies_copy)


def test_an_unknown_key_in_an_entry_is_refused(policies_copy):
    rewrite_model(policies_copy, lambda d: d["entries"][0].update(execute="HIGH"))
    with pytest.raises(ConfigurationError, match=r"sensitive_paths\.yaml: key entries\.0\.execute: unknown key"):
        load_analysis_policy(policies_copy)


def test_a_missing_model_file_names_it(policies_copy):
    (policies_copy / "sensitive_paths.yaml").unlink()
    with pytest.raises(ConfigurationError, match=r"sensitive_paths\.yaml is missing"):
        load_analysis_policy(policies_copy)


def test_listing_a_sensitive_rule_in_analysis_yaml_is_refused_since_its_levels_are_the_models(policies_copy):
    from mai_safety.infrastructure.analysis.ast import AstAnalyzer

    path = policies_copy / "analysis.yaml"
    path.write_text(path.read_text().replace("    process-control: HIGH", "    sensitive-read: HIGH\n    process-control: HIGH"))
    policy = load_analysis_policy(policies_copy)
    with pytest.raises(ConfigurationError, match=r"analysis\.yaml: key ast\.rules\.sensitive-read: .*sensitive_paths\.yaml"):
        AstAnalyzer(policy.ast, policy.threats, policy.paths)


@pytest.mark.parametrize(
    ("path", "access", "marked"),
    [
        ("/workspace/.bashrc", "write", True),  # the sandbox's home is its working folder
        ("/workspace/.config/systemd/user/sync.service", "write", True),
        ("/workspace/.ssh/id_rsa", "read", True),
        ("/etc/shadow", "read", True),
        ("/workspace/results.csv", "write", False),
        ("/workspace/notes.txt", "read", False),
        ("/etc/passwd", "read", False),  # MEDIUM: many ordinary programs read it (a user's name)
        ("/usr/lib/python3.11/os.py", "read", False),
    ],
)
def test_the_observed_record_marks_the_files_the_model_does(model, path, access, marked):
    assert model.observed(path, access, home="/workspace") is marked
