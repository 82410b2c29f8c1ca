"""Shared test set-up.

testcontainers' reaper image cannot be pulled here, so it is switched off and every test removes
what it creates itself.

The whole suite runs with a home of its own: the signing key ($XDG_CONFIG_HOME), the witness
($XDG_STATE_HOME) and the default ledger ($XDG_DATA_HOME) that tests make go to a temporary folder
removed at the end, never to the real home of whoever runs the tests.

scripts/test.sh runs the suite in two pytest-xdist workers, then the tests marked ``alone`` one at a
time (tests/alone.py)."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

pytest_plugins = ["tests.alone"]

os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")

_HOME = tempfile.mkdtemp(prefix="mai-safety-tests-home-")


def pytest_configure(config: pytest.Config) -> None:
    for variable, folder in (("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"), ("XDG_DATA_HOME", "data")):
        path = os.path.join(_HOME, folder)
        os.makedirs(path, mode=0o700, exist_ok=True)
        os.environ[variable] = path


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_HOME, ignore_errors=True)
