"""Reads the analysis policies (policies/analysis.yaml, policies/threats.yaml, policies/sensitive_paths.yaml,
policies/semgrep/*.yaml).

These say how the Semgrep and AST analyzers' findings become our levels, which provenances a
rule's level applies to, which hashes and package names are known threats, and which paths are
sensitive for which operation (the sensitive-path model, shared by both analyzers). Everything is
validated with pydantic; every problem becomes one ConfigurationError naming the file, the key and
what was expected, in the same words as policy_loader.py uses for assessment.yaml and limits.yaml.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.levels import Provenance, RiskLevel

from ..policy_files import load, read_yaml, validate

LevelName = Literal["LOW", "MEDIUM", "HIGH", "BLOCKED"]
ProvenanceName = Literal["mai", "user", "external"]
SemgrepSeverity = Literal["ERROR", "WARNING", "INFO", "CRITICAL", "HIGH", "MEDIUM", "LOW"]

_RULE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_CWE = re.compile(r"^CWE-[0-9]+")
_PACKAGE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
_RANK = {"LOW": 0, "MEDIUM": 1, "HIGH": 2, "BLOCKED": 3}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- analysis.yaml -------------------------------------------------------------------------


class _RuleSetting(_Strict):
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


class _Complexity(_Strict):
    max_nesting_depth: int = Field(gt=0, le=10_000)
    max_expression_depth: int = Field(gt=0, le=10_000)
    max_lines: int = Field(gt=0)
    max_line_length: int = Field(gt=0)


class _SemgrepSection(_Strict):
    rules_dir: str = "semgrep"
    timeout_s: float = Field(gt=0, le=600)
    per_rule_timeout_s: float = Field(gt=0, le=600)
    max_memory_mb: int = Field(ge=64, le=65_536)
    warm_engine: bool = True
    warm_engines: int = Field(default=1, ge=1, le=8)
    severity: dict[SemgrepSeverity, LevelName]
    rules: dict[str, _RuleSetting] = Field(default_factory=dict)


class _AstSection(_Strict):
    complexity: _Complexity
    rules: dict[str, _RuleSetting]


class _ThreatsSection(_Strict):
    file: str = "threats.yaml"


class _SensitivePathsSection(_Strict):
    file: str = "sensitive_paths.yaml"


class _AnalysisFile(_Strict):
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


class _ThreatHash(_Strict):
    name: str = Field(min_length=1)
    scope: Literal["file", "line"]
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    reference: str = ""


class _ThreatPackage(_Strict):
    name: str
    reference: str = ""

    @field_validator("name")
    @classmethod
    def _valid_name(cls, name: str) -> str:
        if not _PACKAGE.match(name):
            raise ValueError(f"{name!r} is not a package name (letters, digits, . _ -)")
        return name


class _ThreatsFile(_Strict):
    version: Literal[1]
    hashes: list[_ThreatHash] = Field(default_factory=list)
    packages: list[_ThreatPackage] = Field(default_factory=list)


# --- sensitive_paths.yaml -------------------------------------------------------------------

_GLOB_START = re.compile(r"^(/|~/|~$|\*\*/)")


class _PathEntry(_Strict):
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


class _SensitivePathsFile(_Strict):
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


class _SemgrepFile(_Strict):
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


OPERATIONS = ("read", "list", "write", "delete")
UNKNOWN_PART = "\ufffc"  # stands for a part of a path known only at run time (the AST analyzer's PLACEHOLDER)
_HOME_SPELLINGS = ("$HOME", "${HOME}", "%USERPROFILE%", "%HOMEPATH%", "$env:USERPROFILE")


def path_forms(path: str, *, unknown_base: bool = True) -> list[str]:
    """The normal forms under which a path (as a program spells it) is matched against the model.

    Home folders spelled any way become ``~`` (``/root`` is kept, and matched as ``~`` too); ``//``,
    ``.`` and ``..`` are resolved; a relative path that climbs out with ``..`` is read from the top,
    as a traversal would reach it; a path whose first part is unknown (``{base}/etc/shadow``) is also
    read from the top and from the home folder (``unknown_base``: for reads and listings, not for
    writes, where a program building a tree of its own is common). Unknown parts stay in the text as UNKNOWN_PART, which
    a glob's ``*`` matches and a literal name does not.
    """
    text = path.strip().strip("'\"").replace("\\", "/")
    if not text or len(text) > 4096:
        return []
    if text.startswith("file:"):  # sqlite3.connect("file:/path?mode=ro", uri=True)
        text = re.sub(r"^file:(//)?", "", text).split("?", 1)[0]
    for home in _HOME_SPELLINGS:
        if text.startswith(home):
            text = "~" + text[len(home):]
    text = re.sub(r"^/home/[^/]+(?=/|$)", "~", text)
    text = re.sub(r"^~[A-Za-z0-9_.-]+(?=/|$)", "~", text)
    text = re.sub(r"^[A-Za-z]:/Users/[^/]+(?=/|$)", "~", text)
    forms: list[str] = []
    if text.startswith("/"):
        forms.append(_resolve("/", text))
    elif text == "~" or text.startswith("~/"):
        forms.append(_resolve("~/", text[1:]))
    else:
        climbed = ".." in text.split("/")
        first, _, rest = text.partition("/")
        normal = posixpath.normpath(text)
        if climbed and (normal == ".." or normal.startswith("../") or first == UNKNOWN_PART):
            forms.append(_resolve("/", re.sub(r"^(\.\./)+|^\.\.$", "", normal)))
        elif unknown_base and first.strip(UNKNOWN_PART) == "" and rest and not climbed:
            forms.extend((_resolve("/", rest), _resolve("~/", rest)))
        forms.append(normal)
    # a home reached by climbing or from an unknown base (`{base}/home/ann/.aws`) is a home too
    forms = [re.sub(r"^/home/[^/]+(?=/|$)", "~", form) for form in forms]
    for form in list(forms):
        if form == "/root" or form.startswith("/root/"):
            forms.append("~" + form[5:])
    return forms


def _resolve(head: str, rest: str) -> str:
    resolved = posixpath.normpath("/" + rest.lstrip("/"))  # .. cannot climb above the top (or home)
    resolved = "/" + resolved.lstrip("/")
    if head == "/":
        return resolved
    return "~" if resolved == "/" else "~" + resolved


def glob_regex(glob: str) -> str:
    """A model glob as a regular expression over normal forms (Python and PCRE alike)."""
    out, index = [], 0
    while index < len(glob):
        if glob.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
        elif glob.startswith("/**", index) and index + 3 == len(glob):
            out.append("(?:/.*)?")
            index += 3
        elif glob.startswith("**", index):
            out.append(".*")
            index += 2
        elif glob[index] == "*":
            out.append("[^/]*")
            index += 1
        elif glob[index] == "?":
            out.append("[^/]")
            index += 1
        elif glob[index] == "[":
            end = glob.index("]", index)
            out.append("[" + glob[index + 1:end].replace("\\", "\\\\") + "]")
            index = end + 1
        else:
            out.append(re.escape(glob[index]))
            index += 1
    return "".join(out)


@dataclass(frozen=True)
class PathRating:
    """What the model says of one operation on one path."""

    level: RiskLevel
    name: str  # the entry's name, e.g. "the password hashes"
    secret: bool
    startup: bool
    form: str  # the normal form that matched


@dataclass(frozen=True)
class _Entry:
    name: str
    globs: tuple[str, ...]
    pattern: re.Pattern[str]
    secret: bool
    startup: bool
    public: bool
    levels: dict[str, RiskLevel]


@dataclass(frozen=True)
class SensitivePaths:
    """The sensitive-path model (policies/sensitive_paths.yaml), compiled."""

    source: Path
    entries: tuple[_Entry, ...]

    def rate(self, path: str, operation: str) -> PathRating | None:
        """The first entry that matches the path and names a level for ``operation``."""
        forms = path_forms(path, unknown_base=operation in ("read", "list"))
        if not forms:
            return None
        for entry in self.entries:
            level = entry.levels.get(operation)
            if level is None:
                continue
            for form in forms:
                if entry.pattern.fullmatch(form):
                    return PathRating(level, entry.name, entry.secret, entry.startup, form)
        return None

    def secret(self, path: str) -> str | None:
        """The entry name if reading ``path`` reads credentials (a secret entry rates the read)."""
        rating = self.rate(path, "read")
        return rating.name if rating is not None and rating.secret else None

    def outside(self, path: str) -> bool:
        """A file outside the working directory (a system place, the home folder, or reached by
        climbing with ``..``) whose read the model does not rate LOW: what ``<<paths:outside>>``
        spells for Semgrep."""
        forms = path_forms(path, unknown_base=False)
        if not forms or not forms[0].startswith(("/", "~")) or UNKNOWN_PART in forms[0].split("/")[0 if forms[0][0] == "~" else 1]:
            return False
        rating = self.rate(path, "read")
        return rating is None or rating.level > RiskLevel.LOW

    def startup(self, path: str) -> bool:
        rating = self.rate(path, "write")
        return rating is not None and rating.startup

    def semgrep_regex(self, kind: str) -> str:
        """A regular expression over paths *as a program spells them* (Semgrep sees string literals,
        not resolved paths), for the taint rules' sources and sinks:

          secret     entries marked secret (their read);
          sensitive  every entry whose read is MEDIUM or above, except public ones;
          outside    any absolute or home path, or climbing path, whose read the model rates
                     neither LOW nor secret (secrets have rules of their own);
          startup    entries marked startup (their write).

        Spellings covered: the path itself with any number of leading slashes, any prefix that
        climbs with ``..`` to it (``/var/www/../../etc/passwd``, ``../../etc/passwd``), and every
        spelling of the home folder for ``~/`` globs. Earlier entries outside the kind are carved
        out with a look-ahead, as the model's first-match order would.
        """
        operation = "write" if kind == "startup" else "read"

        def member(entry: _Entry) -> bool:
            level = entry.levels.get(operation)
            if level is None:
                return False
            if kind == "secret":
                return entry.secret
            if kind == "startup":
                return entry.startup
            if kind == "sensitive":
                return level >= RiskLevel.MEDIUM and not entry.public
            return level >= RiskLevel.MEDIUM and not entry.secret  # outside: LOW and secret entries are carved out

        rated = [entry for entry in self.entries if entry.levels.get(operation) is not None]
        members = [entry for entry in rated if member(entry)]
        if kind == "outside":
            # system places, the home folder, and climbs out of the working directory
            include = r"(?:/|~|\$\{?HOME\b|%USERPROFILE%|[A-Za-z]:[\\/]|(?:.*/)?\.\./).*"
            exclude = [entry for entry in rated if not member(entry)]
        else:
            include = _spellings([glob for entry in members for glob in entry.globs]) or "(?!)"
            last = max((rated.index(entry) for entry in members), default=-1)
            exclude = [entry for entry in rated[:last] if not member(entry)]
        carve = _spellings([glob for entry in exclude for glob in entry.globs])
        return ("^(?!(?:" + carve + ")$)" if carve else "^") + "(?:" + include + ")$"


_HOME_SPELLED = r"(?:~[\w.-]*|\$HOME|\$\{HOME\}|/home/[^/]+|/root|%USERPROFILE%|[A-Za-z]:[\\/]Users[\\/][^\\/]+)"
_TOP_SPELLED = r"(?:/+|(?:.*/)?\.\./)"  # the top, or any climb out to it


def _spellings(globs: list[str]) -> str:
    """How a program may spell a path one of the globs matches, as one regular expression: the
    globs are grouped by how they start, so that each way of spelling the start is tried once."""
    top = [glob_regex(glob[1:]) for glob in globs if glob.startswith("/")]
    home = [glob_regex(glob[1:]) for glob in globs if glob == "~" or glob.startswith("~/")]
    anywhere = [glob_regex(glob[3:]) for glob in globs if glob.startswith("**/")]
    parts = []
    if top:
        parts.append(_TOP_SPELLED + "(?:" + "|".join(top) + ")")
    if home:
        parts.append(_HOME_SPELLED + "(?:" + "|".join(home) + ")")
    if anywhere:
        parts.append("(?:.*/)?(?:" + "|".join(anywhere) + ")")
    return "|".join(parts)


def _sensitive_paths(path: Path) -> SensitivePaths:
    parsed: _SensitivePathsFile = load(path, _SensitivePathsFile)
    entries = []
    for entry in parsed.entries:
        levels = {operation: RiskLevel(value) for operation, value in
                  zip(OPERATIONS, (entry.read, entry.listing, entry.write, entry.delete)) if value is not None}
        pattern = re.compile("|".join(f"(?:{glob_regex(glob)})" for glob in entry.paths))
        entries.append(_Entry(entry.name, tuple(entry.paths), pattern, entry.secret, entry.startup, entry.public, levels))
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
