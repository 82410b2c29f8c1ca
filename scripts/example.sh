#!/usr/bin/env bash
# Sets everything up, then runs examples/hello.py through the whole path: assessment, hardened
# container, recorded events; shows the execution's history and verifies the ledger.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cli=.venv/bin/mai-safety
echo "== mai-safety run examples/hello.py"
output=$($cli run examples/hello.py --json)
.venv/bin/python - "$output" <<'PY'
import json, sys
report = json.loads(sys.argv[1])
print(f"level: {report['level']}  findings: {len(report['findings'])}")
print(f"output: {report['stdout'].rstrip()}")
print(f"status: {report['status']}  exit code: {report['exit_code']}  {report['duration_s']:.3f} s")
print(f"execution: {report['execution_id']}")
PY
id=$(.venv/bin/python -c 'import json,sys; print(json.loads(sys.argv[1])["execution_id"])' "$output")
echo "== mai-safety history $id"
$cli history "$id"
echo "== mai-safety audit verify"
$cli audit verify
