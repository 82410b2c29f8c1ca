"""Reading one policy file: YAML in, a validated pydantic model out, or one ConfigurationError that
names the file, the key and what was expected. Every policy loader goes through here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from mai_safety.application.errors import ConfigurationError

from .reader import being_read, parse_yaml

class StrictModel(BaseModel):
    """What every policy file's model derives from: an unknown key is an error, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def read_yaml(path: Path) -> Any:
    """The parsed file: the folder being read's (application of docs/decisions/0038: each file of a
    version read and parsed once), else read now."""
    folder = being_read(path)
    if folder is not None:
        return folder.yaml(path)
    return parse_yaml(path, lambda: path.read_text(encoding="utf-8"))


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
