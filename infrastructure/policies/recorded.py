"""The application's ``PolicyLoader`` over folders: a version's files are checked in a scratch
folder, and a recorded version is written once under the data folder (``policies/v<N>-<hash>``)
for the loaders, which read folders, to read it."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable
from pathlib import Path

from mai_safety.application.errors import ConfigurationError, InvalidPolicy
from mai_safety.application.ports import Assessor
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.domain.policy_set import PolicyFileRecord

from .folder import check_folder, check_names, check_sizes, records_of, write_folder

#: Builds what judges and sizes executions from a checked folder, for a version (the composition root's).
Build = Callable[[Path, int], tuple[ExecutionPolicy, Assessor]]


class FolderPolicyLoader:
    def __init__(self, data_dir: Path, build: Build) -> None:
        self.data_dir = data_dir
        self.build = build

    def check(self, files: dict[str, str]) -> None:
        check_names(files)  # before anything is written, even to a scratch folder
        try:
            check_sizes(files)
        except ConfigurationError as exc:
            raise InvalidPolicy(exc.message) from None
        with tempfile.TemporaryDirectory(prefix="mai-safety-policy-") as scratch:
            try:
                check_folder(write_folder(files, Path(scratch)))
            except ConfigurationError as exc:  # name the files as the caller sent them
                message = exc.message.replace(f"{scratch}/", "").replace(f" in {scratch}", "")
                raise InvalidPolicy(message) from None

    def records(self, files: dict[str, str]) -> dict[str, PolicyFileRecord]:
        return records_of(files)

    def load(self, version: int, files: dict[str, str]) -> tuple[ExecutionPolicy, Assessor]:
        digest = hashlib.sha256("".join(record["sha256"] for record in records_of(files).values()).encode()).hexdigest()
        folder = write_folder(files, self.data_dir / "policies" / f"v{version}-{digest[:16]}")
        return self.build(folder, version)
