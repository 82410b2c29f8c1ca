"""`mai-safety assess --format sarif`: one SARIF 2.1.0 log, checked against what the 2.1.0 schema
requires of the objects we write (written out here; the schema is not fetched)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mai_safety.infrastructure.cli import main

# --- the SARIF 2.1.0 schema (sarif-schema-2.1.0.json), for the objects this tool emits ---------------
# Each object: its required properties and every property the schema allows (it sets
# additionalProperties: false on all of them).
SCHEMA: dict[str, tuple[set[str], set[str]]] = {
    "sarifLog": ({"version", "runs"}, {"$schema", "version", "runs", "inlineExternalProperties", "properties"}),
    "run": ({"tool"}, {"tool", "invocations", "conversion", "language", "versionControlProvenance", "originalUriBaseIds", "artifacts",
                       "logicalLocations", "graphs", "results", "automationDetails", "runAggregates", "baselineGuid", "redactionTokens",
                       "defaultEncoding", "defaultSourceLanguage", "newlineSequences", "columnKind", "externalPropertyFileReferences",
                       "threadFlowLocations", "taxonomies", "addresses", "translations", "policies", "webRequests", "webResponses",
                       "specialLocations", "properties"}),
    "tool": ({"driver"}, {"driver", "extensions", "properties"}),
    "toolComponent": ({"name"}, {"guid", "name", "organization", "product", "productSuite", "shortDescription", "fullDescription", "fullName",
                                 "version", "semanticVersion", "dottedQuadFileVersion", "releaseDateUtc", "downloadUri", "informationUri",
                                 "globalMessageStrings", "notifications", "rules", "taxa", "locations", "language", "contents",
                                 "isComprehensive", "localizedDataSemanticVersion", "minimumRequiredLocalizedDataSemanticVersion",
                                 "associatedComponent", "translationMetadata", "supportedTaxonomies", "properties"}),
    "reportingDescriptor": ({"id"}, {"id", "deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames", "shortDescription",
                                     "fullDescription", "messageStrings", "defaultConfiguration", "helpUri", "help", "relationships",
                                     "properties"}),
    "multiformatMessageString": ({"text"}, {"text", "markdown", "properties"}),
    "reportingConfiguration": (set(), {"enabled", "level", "rank", "parameters", "properties"}),
    "result": ({"message"}, {"ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations", "guid",
                             "correlationGuid", "occurrenceCount", "partialFingerprints", "fingerprints", "stacks", "codeFlows", "graphs",
                             "graphTraversals", "relatedLocations", "suppressions", "baselineState", "rank", "attachments",
                             "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa", "webRequest", "webResponse", "properties"}),
    "message": (set(), {"text", "markdown", "id", "arguments", "properties"}),
    "location": (set(), {"id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships", "properties"}),
    "physicalLocation": (set(), {"address", "artifactLocation", "region", "contextRegion", "properties"}),
    "artifactLocation": (set(), {"uri", "uriBaseId", "index", "description", "properties"}),
    "region": (set(), {"startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength", "byteOffset", "byteLength",
                       "snippet", "message", "sourceLanguage", "properties"}),
    "artifactContent": (set(), {"text", "binary", "rendered", "properties"}),
    "artifact": (set(), {"description", "location", "parentIndex", "offset", "length", "roles", "mimeType", "contents", "encoding",
                         "sourceLanguage", "hashes", "lastModifiedTimeUtc", "properties"}),
    "invocation": ({"executionSuccessful"}, {"commandLine", "arguments", "responseFiles", "startTimeUtc", "endTimeUtc", "exitCode",
                                             "ruleConfigurationOverrides", "notificationConfigurationOverrides", "toolExecutionNotifications",
                                             "toolConfigurationNotifications", "exitCodeDescription", "exitSignalName", "exitSignalNumber",
                                             "processStartFailureMessage", "executionSuccessful", "machine", "account", "processId",
                                             "executableLocation", "workingDirectory", "environmentVariables", "stdin", "stdout", "stderr",
                                             "stdoutStderr", "properties"}),
    "notification": ({"message"}, {"locations", "message", "level", "threadId", "timeUtc", "exception", "descriptor",
                                   "associatedRule", "properties"}),
}
LEVELS = {"none", "note", "warning", "error"}
ROLES = {"analysisTarget", "attachment", "responseFile", "resultFile", "standardStream", "tracedFile", "unmodified", "modified", "added",
         "deleted", "renamed", "uncontrolled", "driver", "extension", "translation", "taxonomy", "policy", "referencedOnCommandLine",
         "memoryContents", "directory", "userSpecifiedConfiguration", "toolSpecifiedConfiguration", "debugOutputFile"}


def check(kind: str, value: Any, where: str) -> None:
    required, allowed = SCHEMA[kind]
    assert isinstance(value, dict), f"{where}: a {kind} must be an object"
    assert required <= set(value), f"{where}: {kind} lacks {sorted(required - set(value))}"
    assert set(value) <= allowed, f"{where}: {kind} does not allow {sorted(set(value) - allowed)}"
    if "properties" in value:
        assert isinstance(value["properties"], dict), f"{where}.properties must be a property bag"
        tags = value["properties"].get("tags", [])
        assert isinstance(tags, list) and len(tags) == len(set(tags)) and all(isinstance(t, str) for t in tags), f"{where}: tags"


def check_message(value: Any, where: str) -> None:
    check("message", value, where)
    assert "text" in value or "id" in value, f"{where}: a message needs text or id"


def check_location(value: Any, where: str, artifacts: int) -> None:
    check("location", value, where)
    physical = value["physicalLocation"]
    check("physicalLocation", physical, where + ".physicalLocation")
    check("artifactLocation", physical["artifactLocation"], where + ".artifactLocation")
    uri = physical["artifactLocation"]["uri"]
    assert re.match(r"^[a-z][a-z0-9+.-]*:|^[^:/]", uri), f"{where}: {uri!r} is not a URI reference"
    if "index" in physical["artifactLocation"]:
        assert 0 <= physical["artifactLocation"]["index"] < artifacts
    if "region" in physical:
        region = physical["region"]
        check("region", region, where + ".region")
        assert isinstance(region["startLine"], int) and region["startLine"] >= 1, f"{where}: startLine counts from 1"
        assert isinstance(region.get("startColumn", 1), int) and region.get("startColumn", 1) >= 1, f"{where}: startColumn counts from 1"
        if "snippet" in region:
            check("artifactContent", region["snippet"], where + ".snippet")


def validate_sarif(log: dict[str, Any]) -> None:
    check("sarifLog", log, "log")
    assert log["version"] == "2.1.0"
    assert isinstance(log["runs"], list) and log["runs"]
    for r, run in enumerate(log["runs"]):
        where = f"runs[{r}]"
        check("run", run, where)
        check("tool", run["tool"], where + ".tool")
        driver = run["tool"]["driver"]
        check("toolComponent", driver, where + ".driver")
        rules = driver.get("rules", [])
        assert len({rule["id"] for rule in rules}) == len(rules), "rule ids must be unique"
        for i, rule in enumerate(rules):
            check("reportingDescriptor", rule, f"{where}.rules[{i}]")
            for key in ("shortDescription", "fullDescription", "help"):
                if key in rule:
                    check("multiformatMessageString", rule[key], f"{where}.rules[{i}].{key}")
            if "defaultConfiguration" in rule:
                check("reportingConfiguration", rule["defaultConfiguration"], f"{where}.rules[{i}].defaultConfiguration")
                assert rule["defaultConfiguration"].get("level", "warning") in LEVELS
        artifacts = run.get("artifacts", [])
        for i, artifact in enumerate(artifacts):
            check("artifact", artifact, f"{where}.artifacts[{i}]")
            check("artifactLocation", artifact["location"], f"{where}.artifacts[{i}].location")
            assert set(artifact.get("roles", [])) <= ROLES
        for i, invocation in enumerate(run.get("invocations", [])):
            check("invocation", invocation, f"{where}.invocations[{i}]")
            assert isinstance(invocation["executionSuccessful"], bool)
            for j, note in enumerate(invocation.get("toolExecutionNotifications", [])):
                check("notification", note, f"{where}.invocations[{i}].notifications[{j}]")
                check_message(note["message"], f"{where}.invocations[{i}].notifications[{j}].message")
                assert note.get("level", "warning") in LEVELS
        assert run.get("columnKind", "unicodeCodePoints") in ("utf16CodeUnits", "unicodeCodePoints")
        for i, result in enumerate(run.get("results", [])):
            where_result = f"{where}.results[{i}]"
            check("result", result, where_result)
            check_message(result["message"], where_result + ".message")
            assert result.get("level", "warning") in LEVELS
            if "ruleIndex" in result:
                assert rules[result["ruleIndex"]]["id"] == result["ruleId"], f"{where_result}: ruleIndex points at another rule"
            for j, location in enumerate(result.get("locations", [])):
                check_location(location, f"{where_result}.locations[{j}]", len(artifacts))


@pytest.fixture(scope="module")
def corpus() -> Path:
    return Path(__file__).resolve().parents[1] / "corpus"


def run_sarif(capsys, *paths: str) -> tuple[int, dict[str, Any]]:
    status = main(["assess", "--format", "sarif", *paths])
    return status, json.loads(capsys.readouterr().out)


def test_the_sarif_log_has_every_property_sarif_2_1_0_requires_and_no_other(capsys, corpus):
    status, log = run_sarif(capsys, str(corpus / "risky" / "process_control"), str(corpus / "benign" / "system_info"))
    validate_sarif(log)
    assert status == 3  # some HIGH
    assert len(log["runs"]) == 1 and log["runs"][0]["results"]


def test_levels_are_mapped_blocked_and_high_to_error_medium_to_warning_low_to_note(capsys, corpus):
    _, log = run_sarif(capsys, str(corpus / "risky" / "reverse_shell" / "dup2_pty.py"), str(corpus / "risky" / "monitoring"),
                       str(corpus / "benign" / "algorithms" / "quicksort.py"))
    mapping = {result["properties"]["level"]: result["level"] for result in log["runs"][0]["results"]}
    assert mapping["BLOCKED"] == "error" and mapping["MEDIUM"] == "warning"
    assert {"BLOCKED": "error", "HIGH": "error", "MEDIUM": "warning", "LOW": "note"}.items() >= mapping.items()


def test_every_rule_that_fired_is_described_with_our_level_and_cwe(capsys, corpus):
    _, log = run_sarif(capsys, str(corpus / "risky" / "file_exfiltration"))
    run = log["runs"][0]
    fired = {result["ruleId"] for result in run["results"]}
    described = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert fired == set(described)
    for rule in described.values():
        assert rule["name"] and rule["shortDescription"]["text"] and rule["help"]["text"]
        assert rule["properties"]["level"] in ("LOW", "MEDIUM", "HIGH", "BLOCKED")
    assert described["semgrep/send-system-file"]["properties"]["cwe"] == "CWE-200"
    assert described["ast/send-system-file"]["properties"]["level"] == "HIGH"


def test_a_result_is_located_by_file_uri_line_and_column_counted_from_one(capsys, corpus):
    path = corpus / "risky" / "process_control" / "literal_pid.py"
    _, log = run_sarif(capsys, str(path))
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "ast/process-control")
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == path.resolve().as_uri()
    assert location["region"]["startLine"] == 6 and location["region"]["startColumn"] == 1
    assert location["region"]["snippet"]["text"] == "os.kill(4242, signal.SIGTERM)"


def test_each_files_verdict_is_kept_beside_the_findings(capsys, corpus):
    _, log = run_sarif(capsys, str(corpus / "risky" / "system_read" / "passwd_accounts.py"))
    verdict = log["runs"][0]["properties"]["assessments"][0]
    assert verdict["level"] == "MEDIUM" and verdict["decision"] and len(verdict["sha256"]) == 64
    assert log["runs"][0]["artifacts"][0]["hashes"]["sha-256"] == verdict["sha256"]


def test_a_file_that_cannot_be_read_is_a_notification_and_the_run_not_successful(capsys, tmp_path):
    status, log = run_sarif(capsys, str(tmp_path / "missing.py"))
    validate_sarif(log)
    invocation = log["runs"][0]["invocations"][0]
    assert status == 2 and invocation["executionSuccessful"] is False
    assert "missing.py" in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_json_and_text_formats_are_unchanged(capsys, corpus):
    path = str(corpus / "benign" / "algorithms" / "quicksort.py")
    assert main(["assess", "--format", "json", path]) == 0
    assert json.loads(capsys.readouterr().out)["level"] == "LOW"
    assert main(["assess", path]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: LOW")
