"""Reads the analysis policies (policies/analysis.yaml, policies/threats.yaml, policies/sensitive_paths.yaml,
policies/semgrep/*.yaml).

These say how the Semgrep and AST analyzers' findings become our levels, which provenances a
rule's level applies to, which hashes and package names are known threats, and which paths are
sensitive for which operation (the sensitive-path model, shared by both analyzers; compiled into
sensitive_paths.py's SensitivePaths). Everything is
validated with pydantic; every problem becomes one ConfigurationError naming the file, the key and
what was expected, in the same words as policies/execution.py uses for assessment.yaml and limits.yaml.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.levels import Provenance, RiskLevel

from ..policies.files import StrictModel, load, read_yaml, validate
from .sensitive_paths import OPERATIONS, PathEntry, SensitivePaths, glob_regex

LevelName = Literal["LOW", "MEDIUM", "HIGH", "BLOCKED"]
ProvenanceName = Literal["mai", "user", "external"]
SemgrepSeverity = Literal["ERROR", "WARNING", "INFO", "CRITICAL", "HIGH", "MEDIUM", "LOW"]

_RULE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_CWE = re.compile(r"^CWE-[0-9]+")
_PACKAGE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
_RANK = {"LOW": 0, "MEDIUM": 1, "HIGH": 2, "BLOCKED": 3}


# --- analysis.yaml -------------------------------------------------------------------------


class _RuleSetting(StrictModel):
    level: LevelName
    provenances: list[ProvenanceName] | None = None
    otherwise: LevelName | None = None

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, value: Any) -> Any:
        # `rule-id: HIGH` is the short form of `rule-id: {level: HIGH}`.
        return {"level": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _otherwise_not_above_level(self) -> "_RuleSetting":
        _check_provenances(self.level, self.provenances, self.otherwise)
        return self


def _check_provenances(level: str, provenances: list[str] | None, otherwise: str | None) -> None:
    if otherwise is not None and provenances is None:
        raise ValueError("`otherwise` only makes sense with a `provenances` list")
    if otherwise is not None and _RANK[otherwise] > _RANK[level]:
        raise ValueError(f"`otherwise` ({otherwise}) must not be above `level` ({level})")
    if provenances is not None and not provenances:
        raise ValueError("`provenances` must name at least one of mai, user, external (or be left out)")


class _Complexity(StrictModel):
    max_nesting_depth: int = Field(gt=0, le=10_000)
    max_expression_depth: int = Field(gt=0, le=10_000)
    max_lines: int = Field(gt=0)
    max_line_length: int = Field(gt=0)


class _SemgrepSection(StrictModel):
    rules_dir: str = "semgrep"
    timeout_s: float = Field(gt=0, le=600)
    per_rule_timeout_s: float = Field(gt=0, le=600)
    max_memory_mb: int = Field(ge=64, le=65_536)
    warm_engine: bool = True
    warm_engines: int = Field(default=1, ge=1, le=8)
    severity: dict[SemgrepSeverity, LevelName]
    rules: dict[str, _RuleSetting] = Field(default_factory=dict)


class _AstSection(StrictModel):
    complexity: _Complexity
    rules: dict[str, _RuleSetting]


class _ThreatsSection(StrictModel):
    file: str = "threats.yaml"


class _SensitivePathsSection(StrictModel):
    file: str = "sensitive_paths.yaml"


class _AnalysisFile(StrictModel):
    version: Literal[1]
    failure_level: LevelName = "MEDIUM"
    deadline_s: float = Field(gt=0, le=600)
    semgrep: _SemgrepSection
    ast: _AstSection
    threats: _ThreatsSection = _ThreatsSection()
    sensitive_paths: _SensitivePathsSection = _SensitivePathsSection()

    @field_validator("failure_level")
    @classmethod
    def _fail_closed(cls, level: str) -> str:
        if level == "LOW":
            raise ValueError("must be MEDIUM, HIGH or BLOCKED: an analyzer that fails must never yield LOW")
        return level


# --- threats.yaml --------------------------------------------------------------------------


class _ThreatHash(StrictModel):
    name: str = Field(min_length=1)
    scope: Literal["file", "line"]
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    reference: str = ""


class _ThreatPackage(StrictModel):
    name: str
    reference: str = ""

    @field_validator("name")
    @classmethod
    def _valid_name(cls, name: str) -> str:
        if not _PACKAGE.match(name):
            raise ValueError(f"{name!r} is not a package name (letters, digits, . _ -)")
        return name


class _ThreatsFile(StrictModel):
    version: Literal[1]
    hashes: list[_ThreatHash] = Field(default_factory=list)
    packages: list[_ThreatPackage] = Field(default_factory=list)


# --- sensitive_paths.yaml -------------------------------------------------------------------

_GLOB_START = re.compile(r"^(/|~/|~$|\*\*/)")


class _PathEntry(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    name: str = Field(min_length=1)
    paths: list[str] = Field(min_length=1)
    secret: bool = False
    startup: bool = False
    public: bool = False
    read: LevelName | None = None
    listing: LevelName | None = Field(default=None, alias="list")
    write: LevelName | None = None
    delete: LevelName | None = None

    @field_validator("paths")
    @classmethod
    def _globs(cls, paths: list[str]) -> list[str]:
        for path in paths:
            if not _GLOB_START.match(path):
                raise ValueError(f"{path!r} must start with / (absolute), ~/ (in the home folder) or **/ (a name anywhere)")
            if path.count("[") != path.count("]") or "//" in path or "/../" in path + "/" or "/./" in path + "/":
                raise ValueError(f"{path!r} is not a clean glob: close every [ ], and write no //, . or .. segments")
        return paths

    @model_validator(mode="after")
    def _rates_something(self) -> "_PathEntry":
        if not any((self.read, self.listing, self.write, self.delete)):
            raise ValueError(f"entry {self.name!r} gives no level: name at least one of read, list, write, delete")
        if self.secret and self.public:
            raise ValueError(f"entry {self.name!r} cannot be both secret and public")
        if self.secret and self.read not in ("HIGH", "BLOCKED"):
            raise ValueError(f"entry {self.name!r} is secret, so its read level must be HIGH or BLOCKED")
        return self


class _SensitivePathsFile(StrictModel):
    version: Literal[1]
    entries: list[_PathEntry] = Field(min_length=1)


# --- semgrep/*.yaml (only what we rely on; the pattern syntax is Semgrep's to check) ----------


class _SemgrepMetadata(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True, populate_by_name=True)

    level: LevelName
    category: str = Field(min_length=1)
    confidence: Literal["LOW", "MEDIUM", "HIGH"] = "MEDIUM"
    cwe: str = ""
    provenances: list[ProvenanceName] | None = None
    otherwise: LevelName | None = None
    # rules that, when they fire on the same line, say all this one says and more (a flow of the
    # same data to the same sink, seen from a stronger source): this one's finding is dropped there
    subsumed_by: list[str] = Field(default_factory=list, alias="subsumed-by")

    @model_validator(mode="after")
    def _provenances(self) -> "_SemgrepMetadata":
        _check_provenances(self.level, self.provenances, self.otherwise)
        return self

    @field_validator("cwe")
    @classmethod
    def _cwe(cls, cwe: str) -> str:
        if cwe and not _CWE.match(cwe):
            raise ValueError(f"{cwe!r} does not start with a CWE id such as CWE-78")
        return cwe


class _SemgrepRule(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    id: str
    languages: list[str]
    severity: SemgrepSeverity
    message: str = Field(min_length=1)
    metadata: _SemgrepMetadata

    @field_validator("id")
    @classmethod
    def _id(cls, rule_id: str) -> str:
        if not _RULE_ID.match(rule_id):
            raise ValueError(f"{rule_id!r} is not a rule id (lower-case letters, digits and -)")
        return rule_id

    @field_validator("languages")
    @classmethod
    def _python(cls, languages: list[str]) -> list[str]:
        if not {"python", "py", "python3"} & set(languages):
            raise ValueError("must include python: these rules assess Python code")
        return languages


class _SemgrepFile(StrictModel):
    rules: list[_SemgrepRule] = Field(min_length=1)


# --- what the analyzers receive ------------------------------------------------------------


@dataclass(frozen=True)
class RuleLevel:
    """A rule's level, possibly limited to some provenances; the others get ``otherwise``."""

    level: RiskLevel
    provenances: frozenset[Provenance] | None = None
    otherwise: RiskLevel | None = None

    def for_provenance(self, provenance: Provenance) -> RiskLevel:
        if self.provenances is None or provenance in self.provenances:
            return self.level
        if self.otherwise is not None:
            return self.otherwise
        # A malicious pattern in code of a provenance the rule does not cover is still worth a
        # confirmation: it drops to HIGH, never silently to LOW.
        return min(self.level, RiskLevel.HIGH)


@dataclass(frozen=True)
class SemgrepRuleInfo:
    rule_id: str
    file: Path
    level: RuleLevel
    category: str
    confidence: str
    cwe: str
    severity: str
    message: str = ""
    subsumed_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class SemgrepPolicy:
    source: Path
    rule_files: tuple[Path, ...]
    rule_documents: tuple[dict[str, Any], ...]  # the rules as written, for the engine
    rules: dict[str, SemgrepRuleInfo]
    overrides: dict[str, RuleLevel]
    severity: dict[str, RiskLevel]
    timeout_s: float
    per_rule_timeout_s: float
    max_memory_mb: int
    warm_engine: bool
    warm_engines: int = 1

    def level_for(self, rule_id: str, severity: str, provenance: Provenance) -> RiskLevel:
        """analysis.yaml's override if any, else the level in the rule's metadata (either may be
        limited to provenances), else the level for the rule's severity."""
        if rule_id in self.overrides:
            return self.overrides[rule_id].for_provenance(provenance)
        info = self.rules.get(rule_id)
        if info is not None:
            return info.level.for_provenance(provenance)
        return self.severity.get(severity.upper(), RiskLevel.MEDIUM)


@dataclass(frozen=True)
class AstPolicy:
    source: Path
    rules: dict[str, RuleLevel]
    max_nesting_depth: int
    max_expression_depth: int
    max_lines: int
    max_line_length: int


@dataclass(frozen=True)
class ThreatHash:
    name: str
    scope: str
    sha256: str
    reference: str


@dataclass(frozen=True)
class ThreatList:
    source: Path
    file_hashes: dict[str, ThreatHash] = field(default_factory=dict)
    line_hashes: dict[str, ThreatHash] = field(default_factory=dict)
    packages: dict[str, str] = field(default_factory=dict)  # normalised name -> reference


def _sensitive_paths(path: Path) -> SensitivePaths:
    parsed: _SensitivePathsFile = load(path, _SensitivePathsFile)
    entries = []
    for entry in parsed.entries:
        levels = {operation: RiskLevel(value) for operation, value in
                  zip(OPERATIONS, (entry.read, entry.listing, entry.write, entry.delete)) if value is not None}
        pattern = re.compile("|".join(f"(?:{glob_regex(glob)})" for glob in entry.paths))
        entries.append(PathEntry(entry.name, tuple(entry.paths), pattern, entry.secret, entry.startup, entry.public, levels))
    return SensitivePaths(source=path, entries=tuple(entries))


@dataclass(frozen=True)
class AnalysisPolicy:
    directory: Path
    failure_level: RiskLevel
    deadline_s: float
    semgrep: SemgrepPolicy
    ast: AstPolicy
    threats: ThreatList
    paths: SensitivePaths | None = None


def normalise_package(name: str) -> str:
    """PEP 503 normalisation, so that `Pygrata_Utils` and `pygrata-utils` are the same package."""
    return re.sub(r"[-_.]+", "-", name).lower()


def load_analysis_policy(directory: Path) -> AnalysisPolicy:
    if not directory.is_dir():
        raise ConfigurationError(
            f"policy directory {directory} does not exist: point MAI_SAFETY_POLICIES at the project's policies/ folder"
        )
    path = directory / "analysis.yaml"
    analysis: _AnalysisFile = load(path, _AnalysisFile)
    paths = _sensitive_paths(directory / analysis.sensitive_paths.file)
    semgrep = _semgrep_policy(directory, path, analysis.semgrep, paths)
    threats = _threat_list(directory / analysis.threats.file)
    return AnalysisPolicy(
        directory=directory,
        failure_level=RiskLevel(analysis.failure_level),
        deadline_s=analysis.deadline_s,
        semgrep=semgrep,
        ast=AstPolicy(
            source=path,
            rules={rule_id: _rule_level(setting) for rule_id, setting in analysis.ast.rules.items()},
            max_nesting_depth=analysis.ast.complexity.max_nesting_depth,
            max_expression_depth=analysis.ast.complexity.max_expression_depth,
            max_lines=analysis.ast.complexity.max_lines,
            max_line_length=analysis.ast.complexity.max_line_length,
        ),
        threats=threats,
        paths=paths,
    )


def _rule_level(setting: _RuleSetting) -> RuleLevel:
    return RuleLevel(
        level=RiskLevel(setting.level),
        provenances=None if setting.provenances is None else frozenset(Provenance(p) for p in setting.provenances),
        otherwise=None if setting.otherwise is None else RiskLevel(setting.otherwise),
    )


_PATHS_PLACEHOLDER = re.compile(r"<<paths:([a-z]+)>>")
_PATHS_KINDS = ("secret", "sensitive", "outside", "startup")


def _fill_paths(value: Any, paths: SensitivePaths | None, where: str) -> Any:
    """Rule text may say ``<<paths:secret>>`` (or sensitive, outside, startup) where a regular
    expression of the sensitive-path model belongs: the model is written once, in its own file."""
    if isinstance(value, str) and "<<paths:" in value:
        def fill(match: re.Match[str]) -> str:
            kind = match.group(1)
            if kind not in _PATHS_KINDS:
                raise ConfigurationError(f"{where}: <<paths:{kind}>> is not a kind of sensitive path; use one of {', '.join(_PATHS_KINDS)}")
            if paths is None:
                raise ConfigurationError(f"{where}: <<paths:{kind}>> needs the sensitive-path model, which is not loaded")
            return paths.semgrep_regex(kind)
        return _PATHS_PLACEHOLDER.sub(fill, value)
    if isinstance(value, dict):
        return {key: _fill_paths(item, paths, where) for key, item in value.items()}
    if isinstance(value, list):
        return [_fill_paths(item, paths, where) for item in value]
    return value


def _semgrep_policy(directory: Path, source: Path, section: _SemgrepSection, paths: SensitivePaths | None = None) -> SemgrepPolicy:
    rules_dir = directory / section.rules_dir
    files = tuple(sorted(rules_dir.glob("*.yaml"))) if rules_dir.is_dir() else ()
    if not files:
        raise ConfigurationError(
            f"policy file {source}: key semgrep.rules_dir: {rules_dir} holds no *.yaml rule files; "
            "restore them from the project's policies/semgrep/"
        )
    documents: list[dict[str, Any]] = []
    rules: dict[str, SemgrepRuleInfo] = {}
    for path in files:
        raw = read_yaml(path)
        parsed: _SemgrepFile = validate(path, raw, _SemgrepFile)
        for index, rule in enumerate(parsed.rules):
            if rule.id in rules:
                raise ConfigurationError(
                    f"policy file {path}: key rules.{index}.id: {rule.id!r} is already defined in "
                    f"{rules[rule.id].file.name}: rule ids must be unique"
                )
            rules[rule.id] = SemgrepRuleInfo(
                rule_id=rule.id,
                file=path,
                level=RuleLevel(
                    RiskLevel(rule.metadata.level),
                    None if rule.metadata.provenances is None else frozenset(Provenance(p) for p in rule.metadata.provenances),
                    None if rule.metadata.otherwise is None else RiskLevel(rule.metadata.otherwise),
                ),
                category=rule.metadata.category,
                confidence=rule.metadata.confidence,
                cwe=_CWE.match(rule.metadata.cwe).group(0) if rule.metadata.cwe else "",
                severity=rule.severity,
                message=" ".join(rule.message.split()),
                subsumed_by=tuple(rule.metadata.subsumed_by),
            )
            documents.append(_fill_paths(raw["rules"][index], paths, f"policy file {path}: rule {rule.id}"))
    for info in rules.values():
        for other in info.subsumed_by:
            if other not in rules:
                raise ConfigurationError(
                    f"policy file {info.file}: rule {info.rule_id}: key metadata.subsumed-by: no rule {other!r} in "
                    f"{rules_dir}/*.yaml; name rules defined there"
                )
    for rule_id in section.rules:
        if rule_id not in rules:
            raise ConfigurationError(
                f"policy file {source}: key semgrep.rules.{rule_id}: no rule with this id in "
                f"{rules_dir}/*.yaml; use one of the ids defined there"
            )
    return SemgrepPolicy(
        source=source,
        rule_files=files,
        rule_documents=tuple(documents),
        rules=rules,
        overrides={rule_id: _rule_level(setting) for rule_id, setting in section.rules.items()},
        severity={key: RiskLevel(value) for key, value in section.severity.items()},
        timeout_s=section.timeout_s,
        per_rule_timeout_s=section.per_rule_timeout_s,
        max_memory_mb=section.max_memory_mb,
        warm_engine=section.warm_engine,
        warm_engines=section.warm_engines,
    )


def _threat_list(path: Path) -> ThreatList:
    parsed: _ThreatsFile = load(path, _ThreatsFile)
    file_hashes: dict[str, ThreatHash] = {}
    line_hashes: dict[str, ThreatHash] = {}
    for entry in parsed.hashes:
        threat = ThreatHash(entry.name, entry.scope, entry.sha256, entry.reference)
        (file_hashes if entry.scope == "file" else line_hashes)[entry.sha256] = threat
    return ThreatList(
        source=path,
        file_hashes=file_hashes,
        line_hashes=line_hashes,
        packages={normalise_package(entry.name): entry.reference for entry in parsed.packages},
    )
