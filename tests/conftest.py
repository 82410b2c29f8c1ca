"""Shared test set-up. testcontainers' reaper image cannot be pulled here, so it is switched off
and every test removes what it creates itself."""

from __future__ import annotations

import os

os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")
