#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite: unit tests, then integration tests against
# the real Docker engine, real Bandit, and a real Postgres the suite starts itself (testcontainers,
# from the locally built image) as well as SQLite, after the static checks (scripts/check.sh: ruff,
# mypy). Extra arguments go to pytest, in both phases.
#
# Two phases (tests/alone.py): every test not marked `alone` in two pytest-xdist workers (most of
# the suite's time is waiting, which two workers share well on two cores); then the `alone` tests,
# one at a time, once nothing else runs. A phase the arguments leave empty is skipped (pytest's 5).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/check.sh
shared=0
alone=0
MAI_TESTS_PHASE=shared .venv/bin/python -m pytest -n 2 --durations=25 "$@" || shared=$?
MAI_TESTS_PHASE=alone .venv/bin/python -m pytest --durations=10 "$@" || alone=$?
if [ "$shared" -eq 5 ] && [ "$alone" -eq 5 ]; then exit 5; fi
for status in "$shared" "$alone"; do
  if [ "$status" -ne 0 ] && [ "$status" -ne 5 ]; then exit "$status"; fi
done
