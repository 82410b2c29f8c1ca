#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite: unit tests, then integration tests against
# the real Docker engine, real Bandit, and a real Postgres the suite starts itself (testcontainers,
# from the locally built image) as well as SQLite, after the static checks (scripts/check.sh: ruff,
# mypy). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/check.sh
exec .venv/bin/python -m pytest --durations=25 "$@"
