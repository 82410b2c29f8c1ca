#!/usr/bin/env bash
# Builds the two images mai-safety needs, with no image registry:
#   mai-safety/sandbox:1   where submitted code runs (python3, user 1000, nothing else)
#   mai-safety/sandbox-data:1  the same, with Debian's numpy, pandas, matplotlib (Agg) and scipy,
#                          for data work (`image: "data"`, `run --image data`; issue #25)
#   mai-safety/postgres:15 the ledger's Postgres for docker-compose and the test suite
#   mai-safety/egress-proxy:3  the allow-listing egress proxy (mitmproxy, pinned) for --network deps
#   mai-safety/service:1   `mai-safety serve` for docker-compose.yml: python3 and this checkout,
#                          installed with its dependencies (docs/decisions/0017)
# Each is a Debian minbase root filesystem made by debootstrap from this machine's own apt mirror
# and loaded with `docker import` (about a minute each; they build side by side).
# On machines that can pull from a registry, MAI_SAFETY_IMAGE_BUILD=dockerfile builds the
# Dockerfiles under docker/ instead. Idempotent: images already present are kept
# (MAI_SAFETY_REBUILD_IMAGES=1 rebuilds). Naming images builds only those: `build-images.sh sandbox-data`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sandbox_tag=${MAI_SAFETY_IMAGE:-mai-safety/sandbox:1}
data_tag=${MAI_SAFETY_DATA_IMAGE:-mai-safety/sandbox-data:1}
#: What analysis code commonly imports, from Debian: the data image's packages beside python3.
data_packages=python3,python3-numpy,python3-pandas,python3-matplotlib,python3-scipy,python3-openpyxl,python3-tabulate
postgres_tag=${MAI_SAFETY_POSTGRES_IMAGE:-mai-safety/postgres:15}
proxy_tag=${MAI_SAFETY_PROXY_IMAGE:-mai-safety/egress-proxy:3}
service_tag=${MAI_SAFETY_SERVICE_IMAGE:-mai-safety/service:1}
mitmproxy_version=11.0.2
method=${MAI_SAFETY_IMAGE_BUILD:-debootstrap}

present() { docker image inspect "$1" >/dev/null 2>&1 && [ "${MAI_SAFETY_REBUILD_IMAGES:-0}" != 1 ]; }

debian_mirror() {
  # The mirror this machine's apt already uses: no registry host is written into the project.
  if [ -n "${MAI_SAFETY_DEBIAN_MIRROR:-}" ]; then echo "$MAI_SAFETY_DEBIAN_MIRROR"; return; fi
  cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
    | awk '($1=="URIs:" || $1=="deb") && $2 ~ /debian/ && $2 !~ /security/ {print $2; exit}' || true
}

# build_rootfs TAG INCLUDE_PACKAGES CUSTOMISE_FUNCTION IMPORT_CHANGES...
build_rootfs() {
  local tag=$1 include=$2 customise=$3; shift 3
  local work; work=$(mktemp -d)
  local root="$work/rootfs"
  echo "building $tag (debootstrap minbase + $include)"
  if ! debootstrap --variant=minbase --include="$include" bookworm "$root" "$mirror" >"$work/log" 2>&1; then
    tail -n 20 "$work/log" >&2; rm -rf "$work"; return 1
  fi
  "$customise" "$root"
  rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* \
    "$root"/usr/share/info/* "$root"/var/log/* "$root"/tmp/* "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
  local changes=()
  for change in "$@"; do changes+=(--change "$change"); done
  tar -C "$root" -c . | docker import "${changes[@]}" - "$tag" >/dev/null
  rm -rf "$work"
  echo "built $tag"
}

customise_sandbox() {
  local root=$1
  # Only what submitted code needs: the interpreter and an unprivileged user 1000.
  chroot "$root" /usr/sbin/groupadd --gid 1000 sandbox
  chroot "$root" /usr/sbin/useradd --uid 1000 --gid 1000 --no-create-home --home-dir /workspace \
    --shell /usr/sbin/nologin sandbox
  mkdir -p "$root/workspace" "$root/sandbox"
  chown 1000:1000 "$root/workspace"
  rm -rf "$root"/usr/share/locale/*
}

customise_data() {
  # The sandbox's user and folders, and matplotlib's font list made once here: at run time its
  # cache goes to /tmp (MPLCONFIGDIR; the root is read-only) and starts from this one.
  customise_sandbox "$1"
  chroot "$1" /usr/bin/env MPLBACKEND=Agg MPLCONFIGDIR=/usr/share/mai-safety-matplotlib /usr/bin/python3 -c 'import matplotlib.pyplot' >/dev/null 2>&1 || true
  chroot "$1" /usr/bin/python3 -m compileall -q -j 0 /usr/lib/python3/dist-packages >/dev/null 2>&1 || true
}

customise_postgres() {
  local root=$1
  install -m 0755 "$here/docker/postgres/entrypoint.sh" "$root/usr/local/bin/docker-entrypoint.sh"
  mkdir -p "$root/var/lib/postgresql/data" "$root/run/postgresql"
}

customise_proxy() {
  local root=$1
  # mitmproxy and its wheels, from the Python package index this machine's pip already uses,
  # installed for the image's Python 3.11 (the same minor version as the builder's).
  if ! python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    echo "building the egress proxy image needs python3 3.11 on the builder (as on these machines)" >&2
    return 1
  fi
  # Compiled here: the proxy runs on a read-only root and would otherwise compile every module
  # at every start (seconds, at half a CPU).
  python3 -m pip install -q --disable-pip-version-check --no-warn-conflicts \
    --target "$root/opt/egress" "mitmproxy==$mitmproxy_version" 2> >(grep -v -e '^WARNING: Location' -e 'Running pip as' >&2)
  rm -rf "$root/opt/egress/bin"
  chroot "$root" /usr/bin/python3 -m compileall -q -j 0 /opt/egress >/dev/null || true
  # mitmproxy insists on a CA even when, as here, it never intercepts; made once, not at every start.
  # No client trusts it: tunnels are relayed untouched, so this key can sign nothing that matters.
  chroot "$root" /usr/bin/env PYTHONPATH=/opt/egress /usr/bin/python3 -c \
    "from mitmproxy.certs import CertStore; CertStore.from_store('/opt/egress-conf', 'mitmproxy', 2048)"
  chmod -R a+rX "$root/opt/egress-conf"
}

customise_service() {
  local root=$1
  # This checkout and its dependencies, for the image's Python 3.11 (as for the egress proxy), from
  # the Python package index this machine's pip already uses; run by a small wrapper on the PATH.
  # pip too: the service reads pip's index configuration, as the CLI does. (ca-certificates: the
  # Semgrep engine refuses to start without a trust anchor file, though it never connects here.)
  if ! python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    echo "building the service image needs python3 3.11 on the builder (as on these machines)" >&2
    return 1
  fi
  local source; source=$(mktemp -d)
  # A clean copy of the tracked files: no .venv, no build leftovers, no local state (without git,
  # the folder less those).
  if git -C "$here" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$here" ls-files -z | (cd "$here" && tar --null -T - -c) | tar -C "$source" -x
  else
    tar -C "$here" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' -c . | tar -C "$source" -x
  fi
  python3 -m pip install -q --disable-pip-version-check --no-warn-conflicts --no-cache-dir \
    --target "$root/opt/mai-safety" "$source" pip 2> >(grep -v -e '^WARNING: Location' -e 'Running pip as' >&2)
  rm -rf "$source" "$root/opt/mai-safety/bin"
  chroot "$root" /usr/bin/python3 -m compileall -q -j 0 /opt/mai-safety >/dev/null || true
  install -m 0755 "$here/docker/service/mai-safety" "$root/usr/local/bin/mai-safety"
  # A named volume mounted on these starts with their modes: the key's folder 0700, as the key 0600.
  mkdir -p "$root/var/lib/mai-safety/data" "$root/var/lib/mai-safety/state"
  install -d -m 0700 "$root/var/lib/mai-safety/key"
}

# The service image holds this checkout's code: it is built anew when the code it was built from
# differs (its label mai-safety.source), so a compose test never runs yesterday's service.
source_hash() {
  (cd "$here" && git ls-files -z -- domain application infrastructure ledger client policies pyproject.toml docker/service 2>/dev/null \
    | xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16)
}
service_source=$(source_hash)
service_current() {
  present "$service_tag" \
    && [ "$(docker image inspect -f '{{ index .Config.Labels "mai-safety.source" }}' "$service_tag" 2>/dev/null)" = "$service_source" ]
}

wanted=()
if [ $# -gt 0 ]; then  # only the images named
  for name in "$@"; do
    tag=$sandbox_tag; [ "$name" = sandbox-data ] && tag=$data_tag
    case $name in sandbox|sandbox-data) present "$tag" && echo "image $tag present" || wanted+=("$name") ;;
      *) echo "build-images.sh: only sandbox and sandbox-data can be named" >&2; exit 2 ;; esac
  done
  [ ${#wanted[@]} -eq 0 ] && exit 0
fi
if [ $# -eq 0 ]; then
  present "$sandbox_tag" && echo "image $sandbox_tag present" || wanted+=(sandbox)
  present "$data_tag" && echo "image $data_tag present" || wanted+=(sandbox-data)
  present "$postgres_tag" && echo "image $postgres_tag present" || wanted+=(postgres)
  present "$proxy_tag" && echo "image $proxy_tag present" || wanted+=(egress-proxy)
  service_current && echo "image $service_tag present (code $service_source)" || wanted+=(service)
fi
[ ${#wanted[@]} -eq 0 ] && exit 0

if [ "$method" = dockerfile ]; then
  for name in "${wanted[@]}"; do
    tag=$sandbox_tag; [ "$name" = postgres ] && tag=$postgres_tag; [ "$name" = egress-proxy ] && tag=$proxy_tag
    if [ "$name" = sandbox-data ]; then
      docker build -t "$data_tag" -f "$here/docker/sandbox/Dockerfile.data" "$here/docker/sandbox"; continue
    fi
    if [ "$name" = service ]; then  # the project itself is the context
      docker build -t "$service_tag" --label "mai-safety.source=$service_source" -f "$here/docker/service/Dockerfile" "$here"; continue
    fi
    docker build -t "$tag" "$here/docker/$name"
  done
  exit 0
fi

mirror=$(debian_mirror)
[ -n "$mirror" ] || { echo "no Debian mirror in this machine's apt sources: set MAI_SAFETY_DEBIAN_MIRROR" >&2; exit 1; }
command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }

pids=()
for name in "${wanted[@]}"; do
  case $name in
    sandbox) build_rootfs "$sandbox_tag" python3 customise_sandbox \
        'USER 1000:1000' 'WORKDIR /workspace' \
        'ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOME=/workspace LANG=C.UTF-8' \
        'CMD ["python3"]' & ;;
    sandbox-data) build_rootfs "$data_tag" "$data_packages" customise_data \
        'USER 1000:1000' 'WORKDIR /workspace' \
        'ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOME=/workspace LANG=C.UTF-8 MPLBACKEND=Agg MPLCONFIGDIR=/tmp/matplotlib' \
        'CMD ["python3"]' & ;;
    postgres) build_rootfs "$postgres_tag" postgresql-15 customise_postgres \
        'ENV PGDATA=/var/lib/postgresql/data LANG=C.UTF-8 PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin' \
        'EXPOSE 5432' \
        'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' & ;;
    egress-proxy) build_rootfs "$proxy_tag" python3,ca-certificates customise_proxy \
        'USER 65534:65534' 'WORKDIR /tmp' \
        'ENV PYTHONPATH=/opt/egress PYTHONDONTWRITEBYTECODE=1 HOME=/tmp LANG=C.UTF-8' \
        'EXPOSE 8080' & ;;
    service) build_rootfs "$service_tag" python3,ca-certificates customise_service \
        'WORKDIR /var/lib/mai-safety' \
        'ENV PYTHONPATH=/opt/mai-safety PYTHONDONTWRITEBYTECODE=1 LANG=C.UTF-8 HOME=/var/lib/mai-safety MAI_SAFETY_IN_CONTAINER=1' \
        "LABEL mai-safety.source=$service_source" \
        'EXPOSE 8750' \
        'CMD ["mai-safety", "serve", "--host", "0.0.0.0", "--port", "8750"]' & ;;
  esac
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
