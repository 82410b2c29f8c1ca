"""Assessments as a SARIF 2.1.0 log (``mai-safety assess --format sarif``), for code-scanning tools.

One run; ``tool.driver`` describes every rule that fired (id, name, short description, help, our
level and CWE in its properties); one result per finding, its SARIF level mapped from ours
(BLOCKED and HIGH: error, MEDIUM: warning, LOW: note), located by file URI, line and column
(SARIF counts columns from 1, our findings from 0). Each file's verdict (level, decision, SHA-256)
is an artifact with its hash and, in the run's properties, an entry of ``assessments``. Findings
without a line (an analyzer that failed, a whole-program match) are located at the file alone.

Rule ids are namespaced by analyzer (``ast/process-control``, ``semgrep/send-system-file``,
``bandit/B602``): the analyzers' own ids may coincide.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mai_safety.domain.levels import RiskLevel

from .ast import rules as ast_rules
from .policy import AnalysisPolicy

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://github.com/mai-safety/mai-safety"

_SARIF_LEVEL = {"BLOCKED": "error", "HIGH": "error", "MEDIUM": "warning", "LOW": "note"}
# GitHub code scanning reads a numeric "security-severity" (0-10) to sort and badge alerts.
_SECURITY_SEVERITY = {"BLOCKED": "9.5", "HIGH": "8.0", "MEDIUM": "5.0", "LOW": "2.0"}
_ANALYZER_FAILURES = {
    "analyzer-failed": ("An analyzer failed, so the code was not fully checked.",
                        "Rated at least the policy's failure level until the analyzer works again; see the message."),
    "analyzer-timeout": ("An analyzer did not finish within its deadline.",
                         "Shorten or simplify the program, or ask for a manual review."),
    "semgrep-skipped": ("The code nests too deeply for Semgrep; it was not scanned by Semgrep.",
                        "Flatten the deepest expression."),
    "semgrep-parse-error": ("Semgrep could only partly parse the code.", "Fix the syntax so that every analyzer reads all of it."),
    "semgrep-timeout": ("Semgrep ran out of time or memory on the code.", "Shorten or simplify the program."),
}


def sarif_log(
    assessed: list[tuple[str, dict[str, Any]]],
    policy: AnalysisPolicy | None = None,
    *,
    tool_version: str | None = None,
    notifications: list[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The SARIF log of ``assessed``: (name as given - a path or ``-``, the assessment report as a
    dict). ``notifications`` are (name, message) of inputs that could not be assessed;
    ``tool_version`` defaults to the installed package's."""
    notifications = notifications or []
    tool_version = installed_version() if tool_version is None else tool_version
    rules: list[dict[str, Any]] = []
    rule_index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    artifacts: list[dict[str, Any]] = []
    verdicts: list[dict[str, Any]] = []
    for artifact_index, (name, report) in enumerate(assessed):
        uri = _uri(name)
        artifacts.append({"location": {"uri": uri}, "hashes": {"sha-256": report["code_sha256"]}, "roles": ["analysisTarget"],
                          "properties": {"level": report["level"], "decision": report["decision"]}})
        verdicts.append({"uri": uri, "level": report["level"], "decision": report["decision"], "sha256": report["code_sha256"]})
        for finding in report["findings"]:
            rule_id = _rule_id(finding)
            if rule_id not in rule_index:
                rule_index[rule_id] = len(rules)
                rules.append(_rule(rule_id, finding, policy))
            else:
                _raise_default(rules[rule_index[rule_id]], finding["level"])
            results.append(_result(finding, rule_id, rule_index[rule_id], uri, artifact_index))
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "mai-safety", "informationUri": INFORMATION_URI, "rules": rules,
                            **({"version": tool_version, "semanticVersion": tool_version} if tool_version else {})}},
        "invocations": [{
            "executionSuccessful": not notifications,
            "toolExecutionNotifications": [
                {"level": "error", "message": {"text": message}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(name)}}}]}
                for name, message in notifications
            ],
        }],
        "artifacts": artifacts,
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {"assessments": verdicts},
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mai-safety")
    except PackageNotFoundError:
        return ""


def _uri(name: str) -> str:
    if name == "-":
        return "stdin"
    return Path(name).resolve().as_uri()


def _rule_id(finding: dict[str, Any]) -> str:
    analyzer, rule = finding["analyzer"], finding["rule_id"]
    if analyzer == "bandit" and ":" in rule:
        rule = rule.split(":", 1)[0]
    return f"{analyzer}/{rule}"


def _result(finding: dict[str, Any], rule_id: str, index: int, uri: str, artifact_index: int) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": {"uri": uri, "index": artifact_index}}
    line = int(finding.get("line") or 0)
    if line >= 1:
        region: dict[str, Any] = {"startLine": line, "startColumn": int(finding.get("column") or 0) + 1}
        if finding.get("snippet"):
            region["snippet"] = {"text": finding["snippet"]}
        location["region"] = region
    properties = {"level": finding["level"], "analyzer": finding["analyzer"]}
    for key in ("severity", "confidence", "cwe"):
        if finding.get(key):
            properties[key] = finding[key]
    return {
        "ruleId": rule_id,
        "ruleIndex": index,
        "level": _SARIF_LEVEL[finding["level"]],
        "message": {"text": finding["message"] or rule_id},
        "locations": [{"physicalLocation": location}],
        "properties": properties,
    }


def _rule(rule_id: str, finding: dict[str, Any], policy: AnalysisPolicy | None) -> dict[str, Any]:
    analyzer, rule = rule_id.split("/", 1)
    level, cwe, category = finding["level"], finding.get("cwe") or "", ""
    name, short, help_text, help_uri = rule, "", "", ""
    if rule in _ANALYZER_FAILURES:
        short, help_text = _ANALYZER_FAILURES[rule]
        category = "analyzer"
    elif analyzer == "ast" and rule in ast_rules.RULES:
        info = ast_rules.RULES[rule]
        short, help_text, cwe = ast_rules.SUMMARIES.get(rule, ""), info.advice[:1].upper() + info.advice[1:] + ".", cwe or info.cwe
        setting = policy.ast.rules.get(rule) if policy is not None else None
        level = setting.level.value if setting is not None else level
        category = "sensitive_paths" if rule in ast_rules.MODEL_LEVELLED else "ast"
    elif analyzer == "semgrep" and policy is not None and rule in policy.semgrep.rules:
        info = policy.semgrep.rules[rule]
        help_text = info.message
        short = info.message.split("; ")[0].split(" - ")[0].rstrip(".") + "."
        level, cwe, category = info.level.level.value, cwe or info.cwe, info.category
    elif analyzer == "bandit":
        test_name = finding["rule_id"].split(":", 1)[1] if ":" in finding["rule_id"] else rule
        name = test_name or rule
        short = f"Bandit {rule}: {test_name.replace('_', ' ')}."
        help_text = _bandit_advice(rule)
        number = int(rule[1:]) if rule[1:].isdigit() else 0
        help_uri = ("https://bandit.readthedocs.io/en/latest/blacklists/blacklist_calls.html" if 300 <= number < 500 else
                    f"https://bandit.readthedocs.io/en/latest/plugins/{rule.lower()}_{test_name}.html")
        category = "bandit"
    short = short or finding["message"].split("; ")[0][:200] or rule
    descriptor: dict[str, Any] = {
        "id": rule_id,
        "name": name,
        "shortDescription": {"text": short},
        "help": {"text": help_text or short},
        "defaultConfiguration": {"level": _SARIF_LEVEL[level]},
        "properties": {
            "level": level,
            "analyzer": analyzer,
            "tags": sorted({"security", *(t for t in (category, cwe) if t)}),
            "security-severity": _SECURITY_SEVERITY[level],
            **({"cwe": cwe} if cwe else {}),
            **({"category": category} if category else {}),
        },
    }
    if help_uri:
        descriptor["helpUri"] = help_uri
    return descriptor


def _raise_default(rule: dict[str, Any], level: str) -> None:
    """A rule whose level varies per finding (the sensitive-path model, Bandit's confidence) is
    described at the highest level it reached in this run."""
    if RiskLevel(level) > RiskLevel(rule["properties"]["level"]):
        rule["properties"]["level"] = level
        rule["properties"]["security-severity"] = _SECURITY_SEVERITY[level]
        rule["defaultConfiguration"]["level"] = _SARIF_LEVEL[level]


def _bandit_advice(test_id: str) -> str:
    from . import bandit as bandit_analyzer

    advice = getattr(bandit_analyzer, "_ADVICE", {}).get(test_id, "see Bandit's documentation of this test for the safer alternative")
    return advice[:1].upper() + advice[1:] + "."
