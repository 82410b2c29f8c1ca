"""Reading one policy file: YAML in, a validated pydantic model out, or one ConfigurationError that
names the file, the key and what was expected. Every policy loader goes through here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from mai_safety.application.errors import ConfigurationError

# libyaml's safe loader where PyYAML was built with it: the rule files take half a second to read
# with the pure-Python one, on every start.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class StrictModel(BaseModel):
    """What every policy file's model derives from: an unknown key is an error, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def read_yaml(path: Path) -> Any:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader
    except FileNotFoundError:
        raise ConfigurationError(f"policy file {path} is missing: restore it from the project's policies/") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"policy file {path} cannot be read: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ConfigurationError(f"policy file {path} is not valid YAML{where}: fix the syntax") from None


def load(path: Path, model: type[BaseModel]) -> Any:
    return validate(path, read_yaml(path), model)


def validate(path: Path, raw: Any, model: type[BaseModel]) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        key = ".".join(str(part) for part in error["loc"]) or "(top level)"
        expected = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            expected = "unknown key: remove it or check its spelling"
        elif error["type"] == "literal_error":
            expected = f"{error['msg']}, got {error.get('input')!r}"
        elif error["type"] == "missing":
            expected = "this key is required"
        more = f" (and {exc.error_count() - 1} more problem(s))" if exc.error_count() > 1 else ""
        raise ConfigurationError(f"policy file {path}: key {key}: {expected}{more}") from None
