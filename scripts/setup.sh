#!/usr/bin/env bash
# Sets up everything mai-safety needs on a Debian machine, idempotently:
#   1. a Docker engine that answers (installs Debian's docker.io and starts dockerd if none does)
#   2. the sandbox and Postgres images (scripts/build-images.sh; no registry needed)
#   3. a virtual environment at .venv with the project installed (editable) and its test tools
# Run as root (or with sudo rights for the engine). Safe to run again: it skips what is done.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf 'setup: %s\n' "$*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

docker_answers() { docker info >/dev/null 2>&1; }

ensure_docker() {
  if docker_answers; then return; fi
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

ensure_docker
command -v debootstrap >/dev/null 2>&1 || { as_root apt-get update -qq; as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
bash scripts/build-images.sh >&2
ensure_venv
log "ready: .venv/bin/mai-safety"
