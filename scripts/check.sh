#!/usr/bin/env bash
# Static checks, run by scripts/test.sh before the tests (so CI runs them): ruff over the
# repository, then mypy, strict on domain/ and application/ (the ledger wing's too: ledger/domain, ledger/application; settings in pyproject.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "ruff check ."
.venv/bin/ruff check --quiet .
# mypy reads the sources under the names they install as (mai_safety.domain, ...): the checkout
# keeps them at the top level (docs/decisions/0001), so it reads them through a tree of links.
tree=build/typecheck/mai_safety
mkdir -p "$tree" && touch "$tree/__init__.py"
for part in domain application infrastructure client policies ledger; do ln -sfn "../../../$part" "$tree/$part"; done
echo "mypy --strict domain application ledger/domain ledger/application"
cd build/typecheck
exec ../../.venv/bin/mypy --config-file ../../pyproject.toml mai_safety/domain mai_safety/application mai_safety/ledger/domain mai_safety/ledger/application
