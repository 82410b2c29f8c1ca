"""The one reader of a policy folder: ``PolicyFolder`` reads each file of one version once and
parses it once, and hands every loader its parsed piece (docs/decisions/0038).

The loaders (infrastructure/policies/execution.py, analysis/policy.py, ledger/policy.py,
alerts/policy.py, folder.py's checks) each name the file they want, as they always did; every one
goes through ``policies.files.read_yaml``, which asks the folder being read (``with
PolicyFolder(directory).reading():``) before it reads anything itself. Outside such a block a
file is read as asked (a one-off: ``policy validate`` of a folder, a test).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import yaml

from mai_safety.application.errors import ConfigurationError

from ..input_files import UnreadableInput, read_regular_file

# libyaml's safe loader where PyYAML was built with it: the rule files take half a second to read
# with the pure-Python one, on every start.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: A folder's policy files: the YAML at its top and the Semgrep rules in semgrep/.
_PATTERNS = ("*.yaml", "semgrep/*.yaml")
#: Bounds on what is read and recorded: a policy folder is a few dozen small files.
MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES = 64, 256 * 1024, 1024 * 1024

_being_read: ContextVar[PolicyFolder | None] = ContextVar("policy_folder_being_read", default=None)


class PolicyFolder:
    """One version's policy folder. ``files()``: every policy file's text, read once, bounded;
    ``yaml(path)``: a file parsed once (from that text when the folder was read whole)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._texts: dict[str, str] | None = None
        self._parsed: dict[Path, Any] = {}

    @contextmanager
    def reading(self) -> Iterator[PolicyFolder]:
        """Inside the block, every loader's read of a file of this folder is this object's."""
        token = _being_read.set(self)
        try:
            yield self
        finally:
            _being_read.reset(token)

    def files(self) -> dict[str, str]:
        if self._texts is None:
            self._texts = read_folder(self.directory)
        return dict(self._texts)

    def yaml(self, path: Path) -> Any:
        """The parsed file, shared by its loaders: they read it, never change it."""
        if path not in self._parsed:
            self._parsed[path] = parse_yaml(path, lambda: self._text(path))
        return self._parsed[path]

    def holds(self, path: Path) -> bool:
        return path.is_relative_to(self.directory)

    def _text(self, path: Path) -> str:
        name = path.relative_to(self.directory).as_posix()
        if self._texts is not None and name in self._texts:
            return self._texts[name]
        return path.read_text(encoding="utf-8")


@contextmanager
def reading_folder(directory: Path) -> Iterator[PolicyFolder]:
    """The folder of ``directory`` being read (the caller's, when it reads that one already), read
    for the block's loaders."""
    current = _being_read.get()
    if current is not None and current.directory == directory:
        yield current
        return
    with PolicyFolder(directory).reading() as folder:
        yield folder


def being_read(path: Path) -> PolicyFolder | None:
    """The folder being read that holds ``path``, if one is."""
    folder = _being_read.get()
    return folder if folder is not None and folder.holds(path) else None


def parse_yaml(path: Path, text: Callable[[], str]) -> Any:
    """``text()`` parsed, or one ConfigurationError naming ``path`` and what is wrong."""
    try:
        return yaml.load(text(), Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader
    except FileNotFoundError:
        raise ConfigurationError(f"policy file {path} is missing: restore it from the project's policies/") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"policy file {path} cannot be read: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ConfigurationError(f"policy file {path} is not valid YAML{where}: fix the syntax") from None


def read_folder(directory: Path) -> dict[str, str]:
    """Every policy file of ``directory`` by its name relative to it (sorted), as text."""
    if not directory.is_dir():
        raise ConfigurationError(f"policy directory {directory} does not exist")
    # Every entry but a folder is read, so that a FIFO or a device named *.yaml is refused, not
    # skipped; each is read as a FILE argument is (infrastructure/input_files.py): a regular file
    # inside the folder, bounded in size before and while it is read.
    paths = sorted({path for pattern in _PATTERNS for path in directory.glob(pattern) if not path.is_dir()})
    if len(paths) > MAX_FILES:
        raise ConfigurationError(f"a policy has at most {MAX_FILES} files, got {len(paths)}")
    files: dict[str, str] = {}
    for path in paths:
        try:
            data = read_regular_file(str(path), MAX_FILE_BYTES, within=str(directory))
            files[path.relative_to(directory).as_posix()] = data.decode("utf-8")
        except UnreadableInput as exc:
            raise ConfigurationError(f"policy file {exc.message}") from None
        except UnicodeDecodeError as exc:
            raise ConfigurationError(f"policy file {path} cannot be read: {exc}") from None
    check_sizes(files)
    return files


def check_sizes(files: dict[str, str]) -> None:
    if len(files) > MAX_FILES:
        raise ConfigurationError(f"a policy has at most {MAX_FILES} files, got {len(files)}")
    for name, text in files.items():
        if len(text.encode("utf-8")) > MAX_FILE_BYTES:
            raise ConfigurationError(f"policy file {name} is larger than {MAX_FILE_BYTES} bytes")
    if sum(len(text.encode("utf-8")) for text in files.values()) > MAX_TOTAL_BYTES:
        raise ConfigurationError(f"the policy files together are larger than {MAX_TOTAL_BYTES} bytes")
