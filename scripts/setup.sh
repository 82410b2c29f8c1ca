#!/usr/bin/env bash
# Sets up everything mai-safety needs on a Debian machine, idempotently:
#   1. a Docker engine that answers (installs Debian's docker.io and starts dockerd if none does)
#      and, on an engine this script started (or with MAI_SAFETY_INSTALL_GVISOR=1), gVisor's runsc
#      registered with it as the runtime `runsc`: a second wall for untrusted code (decision 0013)
#   2. the sandbox, Postgres, egress proxy and service images (scripts/build-images.sh; no registry
#      needed), and Compose for the service deployment (Debian's docker-compose, if none answers)
#   3. a virtual environment at .venv with the project installed (editable) and its test tools,
#      and Debian's chromium for the HTML report's browser test
# Run as root (or with sudo rights for the engine). Safe to run again: it skips what is done.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf 'setup: %s\n' "$*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

docker_answers() { docker info >/dev/null 2>&1; }

started_engine=0

ensure_docker() {
  if docker_answers; then return; fi
  started_engine=1
  if ! command -v dockerd >/dev/null 2>&1; then
    log "installing Debian's docker.io"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
  fi
  if ! command -v docker >/dev/null 2>&1; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-cli >/dev/null || true
  fi
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
    log "starting docker with systemd"
    as_root systemctl start docker || true
  fi
  if ! docker_answers; then
    log "starting dockerd (log: /var/log/mai-safety-dockerd.log)"
    as_root bash -c 'setsid nohup dockerd >/var/log/mai-safety-dockerd.log 2>&1 < /dev/null &'
  fi
  for _ in $(seq 1 60); do docker_answers && return; sleep 1; done
  log "Docker did not answer within 60 s; see /var/log/mai-safety-dockerd.log"
  exit 5
}

runsc_registered() { docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; }

# gVisor (Debian's runsc) as the Docker runtime `runsc`, with gVisor's own networking off: with it
# on, a container without a network of its own fails to start ("cannot run with network enabled in
# root network namespace"); off, the sandbox has a loopback and nothing else, as under runc.
# --host-uds=open lets the runner connect to the record socket the supervisor makes in the run's
# own read-only folder (the only host sockets a sandbox can reach are those bind-mounted into it).
# Registered only on an engine this script started, or when asked: an engine someone else runs is
# theirs to reconfigure. Reloaded with SIGHUP (running containers are untouched), not restarted.
ensure_gvisor() {
  if [ "$started_engine" != 1 ] && [ "${MAI_SAFETY_INSTALL_GVISOR:-0}" != 1 ]; then
    if ! runsc_registered; then
      log "gVisor (runsc) is not registered with this Docker engine: untrusted code runs under runc (runtime: auto)."
      log "  to add it: MAI_SAFETY_INSTALL_GVISOR=1 bash scripts/setup.sh   (installs Debian's runsc, edits /etc/docker/daemon.json, reloads dockerd)"
    fi
    return
  fi
  if ! command -v runsc >/dev/null 2>&1; then
    log "installing Debian's runsc (gVisor)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends runsc >/dev/null
  fi
  local changed
  changed=$(as_root python3 - "$(command -v runsc)" <<'PY'
import json, os, sys
path, runsc = "/etc/docker/daemon.json", sys.argv[1]
try:
    with open(path) as handle:
        config = json.load(handle)
except FileNotFoundError:
    config = {}
wanted = {"path": runsc, "runtimeArgs": ["--network=none", "--host-uds=open"]}
# The same sandbox with gVisor's system-call trace on, written on the host to one log per sandbox
# (decision 0044: the observed record); the service uses it for gVisor runs when it is registered.
traced = ("execve,execveat,open,openat,creat,unlink,unlinkat,rename,renameat,renameat2,rmdir,connect,"
          "kill,tkill,tgkill,clone,fork,vfork,sendto,sendmsg")
observed = {"path": runsc, "runtimeArgs": [*wanted["runtimeArgs"], "--debug-log=/var/log/mai-safety-observed/",
            "--debug-command=boot", "--strace", f"--strace-syscalls={traced}", "--strace-log-size=256"]}
os.makedirs("/var/log/mai-safety-observed", mode=0o750, exist_ok=True)
runtimes = config.setdefault("runtimes", {})
if runtimes.get("runsc") == wanted and runtimes.get("runsc-observed") == observed:
    print(0)
    sys.exit(0)
runtimes["runsc"] = wanted
runtimes["runsc-observed"] = observed
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path + ".mai-safety.tmp", "w") as handle:
    json.dump(config, handle, indent=2)
    handle.write("\n")
os.replace(path + ".mai-safety.tmp", path)
print(1)
PY
)
  if [ "$changed" = 1 ] || ! runsc_registered; then
    log "registering runsc with the Docker engine (/etc/docker/daemon.json; reloading dockerd)"
    local pid
    pid=$(pidof dockerd | awk '{print $1}')
    if [ -z "$pid" ]; then log "no dockerd process to reload here: restart the engine to pick up runsc"; return; fi
    as_root kill -HUP "$pid"
    for _ in $(seq 1 30); do runsc_registered && break; sleep 1; done
  fi
  if runsc_registered; then
    log "gVisor ready: runtime runsc ($(runsc --version 2>/dev/null | head -n 1))"
  else
    log "runsc did not appear in \`docker info\` within 30 s; see /var/log/mai-safety-dockerd.log"
    exit 5
  fi
}

# Compose runs the service deployment (docker-compose.yml) and its test. Debian 12 packages
# Compose v1 (`docker-compose`, 1.29), not the v2 plugin (`docker compose`): either will do.
# Installed only when neither answers and the compose test is to run (MAI_SAFETY_COMPOSE=0 skips).
ensure_compose() {
  [ "${MAI_SAFETY_COMPOSE:-1}" = 0 ] && return
  if docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null 2>&1; then return; fi
  log "installing Debian's docker-compose (Compose v1) for the compose deployment and its test"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
}

# A headless browser for the HTML audit report's test (it opens the report and screenshots it).
ensure_chromium() {
  command -v chromium >/dev/null 2>&1 && return
  log "installing Debian's chromium (the HTML report's browser test)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
}

ensure_venv() {
  local stamp=.venv/.mai-safety-installed
  local want
  want=$(cat pyproject.toml | sha256sum | cut -d' ' -f1)
  if [ -x .venv/bin/mai-safety ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  log "installing the project into .venv"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  .venv/bin/python -m pip install -q -e '.[test]' 2> >(grep -v '^WARNING: Location' >&2)
  echo "$want" > "$stamp"
}

# The checkout's own modules, compiled once. pip compiles what it installs, but the project is
# installed editable: its modules are read from this folder, and where PYTHONDONTWRITEBYTECODE is set
# (these machines set it) no process ever writes their bytecode, so every command, service and test
# process would compile all of them again (~0.3 s each; docs/performance.md). Python still reads
# bytecode it finds; a file changed since is compiled again in memory, as without this step.
compile_sources() {
  .venv/bin/python -m compileall -q -j 0 domain application infrastructure ledger client >/dev/null
}

ensure_docker
ensure_gvisor
command -v debootstrap >/dev/null 2>&1 || { as_root apt-get update -qq; as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
bash scripts/build-images.sh >&2
ensure_compose
ensure_chromium
ensure_venv
compile_sources
log "ready: .venv/bin/mai-safety"
