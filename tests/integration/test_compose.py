"""The compose deployment (docker-compose.yml, docs/decisions/0017), brought up for real under a
project name of its own: Postgres, the init step that makes the ledger append-only, and the service
holding the Docker socket. A token is made inside the service container, as the operator would;
hello world goes through the API and completes in a sibling sandbox; the service's database role
is refused UPDATE and DELETE. Everything the project made goes with ``down -v``, pass or fail.

Also: a wheel built from the checkout, installed into a fresh venv outside it, finds its policies.

Deselect with ``-m 'not compose'``. The service image is built by scripts/setup.sh; if it is
absent, this builds it (scripts/build-images.sh, a few minutes)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import docker
import httpx
import psycopg
import pytest
import yaml

from mai_safety.infrastructure.sandbox import LABEL_MANAGED, LABEL_SUPERVISOR, gvisor_status
from mai_safety.infrastructure.settings import PROJECT_ROOT

from .network_world import World, start_world, stop_world
from .service_helpers import free_port

pytestmark = pytest.mark.compose

SERVICE_IMAGE = os.environ.get("MAI_SAFETY_SERVICE_IMAGE", "mai-safety/service:1")
OWNER_PASSWORD = "ownerpw" + uuid.uuid4().hex[:12]
SERVICE_PASSWORD = "servicepw" + uuid.uuid4().hex[:12]


def compose_command() -> list[str]:
    """`docker compose` (the v2 plugin) where it answers, else Debian 12's `docker-compose` (v1)."""
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    pytest.fail("neither `docker compose` nor `docker-compose` answers: run `bash scripts/setup.sh`")


@dataclass
class Deployment:
    project: str
    env: dict[str, str]
    url: str
    postgres_port: int
    client: docker.DockerClient
    override: Path  # the test's own additions: the outside world's index, its CA, its network policy

    def compose(self, *args: str, check: bool = True, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        files = ["-f", str(PROJECT_ROOT / "docker-compose.yml"), "-f", str(self.override)]
        command = [*compose_command(), "-p", self.project, *files, *args]
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=timeout, cwd=PROJECT_ROOT)
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
        return done

    def containers(self) -> list:
        return self.client.containers.list(all=True, filters={"label": f"com.docker.compose.project={self.project}"})

    def container(self, service: str):
        (found,) = [c for c in self.containers() if c.labels.get("com.docker.compose.service") == service]
        return found


def _ensure_image() -> None:
    client = docker.from_env()
    try:
        client.images.get(SERVICE_IMAGE)
    except docker.errors.ImageNotFound:
        subprocess.run(["bash", str(PROJECT_ROOT / "scripts" / "build-images.sh")], check=True, timeout=1200)
    finally:
        client.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """A package index outside the deployment, over TLS with a throwaway CA (network_world.py)."""
    client = docker.from_env()
    made = start_world(client, tmp_path_factory.mktemp("compose-world"), "mai-safety/sandbox:1")
    try:
        for address in made.hosts.values():
            _wait_for_port(address, 443 if address == made.hosts["index.mai-test"] else 80)
        yield made
    finally:
        stop_world(client, made)
        client.close()


def _wait_for_port(address: str, port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection((address, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"test server {address}:{port} did not start")


def _override(directory: Path, world: World) -> Path:
    """What an operator behind a TLS-inspecting proxy adds to the shipped file: pip's index and the
    CA its pip trusts (a public certificate, mounted read-only), and a network policy whose
    upstream network reaches that index. The shipped policies otherwise."""
    assert world.index_ca is not None
    policies = directory / "policies"
    shutil.copytree(PROJECT_ROOT / "policies", policies)
    network = yaml.safe_load((policies / "network.yaml").read_text())
    network.update({"upstream_network": world.network})
    (policies / "network.yaml").write_text(yaml.safe_dump(network))
    for path in [directory, *directory.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    override = {
        "services": {
            "service": {
                "environment": {
                    "PIP_INDEX_URL": "https://index.mai-test/simple",
                    "PIP_CERT": "/etc/mai-safety/pip-ca.pem",
                    "MAI_SAFETY_POLICIES": "/etc/mai-safety/policies",
                },
                "volumes": [f"{world.index_ca}:/etc/mai-safety/pip-ca.pem:ro", f"{policies}:/etc/mai-safety/policies:ro"],
            }
        }
    }
    path = directory / "docker-compose.test.yml"
    path.write_text(yaml.safe_dump(override))
    return path


@pytest.fixture(scope="module")
def deployment(world: World, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    _ensure_image()
    project = f"maisafetytest{uuid.uuid4().hex[:10]}"
    port, postgres_port = free_port(), free_port()
    override = _override(tmp_path_factory.mktemp("compose-override"), world)
    # The runs' folder: the same path on the host and in the service container.
    # Short: each run's record socket lives below it, and Unix socket paths are short.
    work = Path(tempfile.mkdtemp(prefix="mst-", dir="/var/tmp"))
    env = {
        **{name: value for name, value in os.environ.items() if not name.startswith(("MAI_SAFETY_", "COMPOSE_"))},
        "MAI_POSTGRES_PASSWORD": OWNER_PASSWORD,
        "MAI_POSTGRES_SERVICE_PASSWORD": SERVICE_PASSWORD,
        "MAI_SAFETY_PORT": str(port),
        "MAI_POSTGRES_PORT": str(postgres_port),
        "MAI_SAFETY_WORK_DIR": str(work),
        "MAI_SAFETY_SERVICE_IMAGE": SERVICE_IMAGE,
        "MAI_SAFETY_POSTGRES_IMAGE": os.environ.get("MAI_SAFETY_POSTGRES_IMAGE", "mai-safety/postgres:15"),
    }
    client = docker.from_env()
    world = Deployment(project, env, f"http://127.0.0.1:{port}", postgres_port, client, override)
    try:
        world.compose("up", "-d", "--no-build")
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{world.url}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                logs = world.compose("logs", "--no-color", check=False).stdout
                raise AssertionError(f"/v1/health did not answer within 90 s:\n{logs[-4000:]}")
            time.sleep(0.5)
        yield world
    finally:
        _tear_down(world, work)


def _tear_down(world: Deployment, work: Path) -> None:
    """The sandboxes the service made (labelled with its supervisor), then the project, its
    networks and volumes; then the runs' folder. Nothing of another suite's is touched."""
    supervisors: set[str] = set()
    try:
        for container in world.containers():
            if container.labels.get("com.docker.compose.service") == "service":
                container.reload()
                pid = container.attrs["State"].get("Pid")
                if pid:
                    supervisors.add(f"mai-safety-service/{pid}/")
    finally:
        try:
            world.compose("down", "-v", "--remove-orphans", "-t", "10", check=False)
        finally:
            for container in world.client.containers.list(all=True, filters={"label": f"{LABEL_MANAGED}=1"}):
                if any(container.labels.get(LABEL_SUPERVISOR, "").startswith(prefix) for prefix in supervisors):
                    container.remove(force=True)
            for container in world.containers():  # what `down` did not take, should it have failed
                container.remove(force=True, v=True)
            for network in world.client.networks.list(filters={"label": f"com.docker.compose.project={world.project}"}):
                network.remove()
            for volume in world.client.volumes.list(filters={"label": f"com.docker.compose.project={world.project}"}):
                volume.remove(force=True)
            shutil.rmtree(work, ignore_errors=True)
            world.client.close()


def test_hello_world_through_the_composed_service(deployment: Deployment) -> None:
    made = deployment.compose("exec", "-T", "service", "mai-safety", "tokens", "create", "mai", "--role", "submitter", "--json")
    token = json.loads(made.stdout.strip().splitlines()[-1])["token"]
    with httpx.Client(base_url=deployment.url, headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
        response = http.post("/v1/executions", json={"code": "print('hello from compose')\n", "task_id": "t-1"})
        assert response.status_code == 200, response.text
        report = response.json()
        # All three analyzers worked inside the image (Semgrep's engine needs, for one, a CA file).
        assert report["level"] == "LOW" and not report["findings"], report["findings"]
        assert (report["status"], report["exit_code"], report["stdout"]) == ("completed", 0, "hello from compose\n")
        events = http.get(f"/v1/executions/{report['execution_id']}/events").json()
    # The run was supervised from inside the service container: sampled from the host's cgroups
    # (pid: host) and surveyed through /proc/PID/root.
    names = [event["event"] for event in events]
    assert names[:2] == ["Assessed", "Started"] and names[-1] == "Completed", names  # samples may come between
    outcome = events[-1]["outcome"]
    assert outcome["peaks"]["samples"] >= 1 and outcome["peaks"]["memory_peak_bytes"] > 0, outcome["peaks"]
    assert outcome["observations"]["files_created"] == {"count": 0, "bytes": 0, "first": []}, outcome["observations"]
    assert events[1]["supervisor"].startswith("mai-safety-service/")
    # A file the run left (in its 0700 /workspace, uid 1000) is read from outside, by descriptor,
    # through /proc/PID/root: root with DAC_READ_SEARCH and SYS_PTRACE, nothing more.
    with httpx.Client(base_url=deployment.url, headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
        wrote = http.post("/v1/executions", json={"code": "with open('out.txt', 'w') as f:\n    f.write('x' * 10)\n"}).json()
        assert wrote["status"] == "completed", wrote
        (ending,) = [e for e in http.get(f"/v1/executions/{wrote['execution_id']}/events").json() if e["event"] == "Completed"]
    files = ending["outcome"]["observations"]["files_created"]
    assert (files["count"], files["bytes"]) == (1, 10), files
    # Without a token, nothing.
    assert httpx.post(f"{deployment.url}/v1/executions", json={"code": "print(1)\n"}).status_code == 401


def test_untrusted_code_runs_under_gvisor_from_the_composed_service(deployment: Deployment) -> None:
    made = deployment.compose("exec", "-T", "service", "mai-safety", "tokens", "create", "ext", "--role", "submitter", "--json")
    token = json.loads(made.stdout.strip().splitlines()[-1])["token"]
    with httpx.Client(base_url=deployment.url, headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
        # External code is untrusted: its profile asks for runtime auto, gVisor where the engine has it.
        report = http.post("/v1/executions", json={"code": "print('walled')\n", "provenance": "external"}).json()
        assert (report["status"], report["stdout"]) == ("completed", "walled\n"), report
        (started,) = [e for e in http.get(f"/v1/executions/{report['execution_id']}/events").json() if e["event"] == "Started"]
        expected = "runsc" if gvisor_status(deployment.client).get("available") else "runc"
        assert started["runtime"]["name"] == expected, started["runtime"]


def test_dependencies_install_from_the_composed_service_through_the_ca_its_pip_trusts(deployment: Deployment, world: World) -> None:
    """Issue 23, finding 9: --network deps was refused in this deployment ("not available when
    mai-safety runs inside a container"); and the index answers with a certificate of a CA that
    only the service's pip configuration (PIP_CERT) names, as behind a TLS-inspecting proxy."""
    made = deployment.compose("exec", "-T", "service", "mai-safety", "tokens", "create", "deps", "--role", "submitter", "--json")
    token = json.loads(made.stdout.strip().splitlines()[-1])["token"]
    with httpx.Client(base_url=deployment.url, headers={"Authorization": f"Bearer {token}"}, timeout=180) as http:
        response = http.post("/v1/executions", json={
            "code": "import mai_hello\nprint(mai_hello.GREETING)\n", "network": "deps", "requirements": ["mai-hello==1.0"],
        })
        assert response.status_code == 200, response.text
        report = response.json()
        assert (report["status"], report["stdout"]) == ("completed", "hello from the local index\n"), report
        (ending,) = [e for e in http.get(f"/v1/executions/{report['execution_id']}/events").json() if e["event"] == "Completed"]
    observations = ending["outcome"]["observations"]
    assert [item["sha256"] for item in observations["dependencies"]["installed"]] == [world.wheel_sha256]
    assert ("index.mai-test", "allowed") in {(item["host"], item["verdict"]) for item in observations["network"]["requests"]}


def test_the_service_connects_as_the_insert_and_select_role_which_cannot_change_rows(deployment: Deployment) -> None:
    environment = dict(item.split("=", 1) for item in deployment.container("service").attrs["Config"]["Env"])
    assert environment["MAI_SAFETY_DATABASE_URL"].startswith("postgresql://mai_service:")
    assert OWNER_PASSWORD not in " ".join(environment.values())
    # A token grant is a row the service wrote, whatever ran before.
    deployment.compose("exec", "-T", "service", "mai-safety", "tokens", "create", "auditor", "--role", "auditor")
    conninfo = f"host=127.0.0.1 port={deployment.postgres_port} dbname=mai_safety user=mai_service password={SERVICE_PASSWORD}"
    with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as connection:
        (rows,) = connection.execute("SELECT count(*) FROM maisafety_events").fetchone()
        assert rows > 0
        for statement in (
            "UPDATE maisafety_events SET topic = topic",
            "DELETE FROM maisafety_events",
            "TRUNCATE maisafety_events",
            "UPDATE maisafety_events_checkpoints SET reason = reason",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                connection.execute(statement)
        (after,) = connection.execute("SELECT count(*) FROM maisafety_events").fetchone()
        assert after >= rows


def test_the_socket_is_the_services_alone_and_the_key_is_0600(deployment: Deployment) -> None:
    for container in deployment.containers():
        mounts = {mount.get("Source") for mount in container.attrs["Mounts"]}
        holds_socket = "/var/run/docker.sock" in mounts
        assert holds_socket == (container.labels["com.docker.compose.service"] == "service"), container.name
    modes = deployment.compose(
        "exec", "-T", "service", "stat", "-c", "%a %U", "/var/lib/mai-safety/key", "/var/lib/mai-safety/key/signing-key.pem"
    ).stdout.split("\n")
    assert modes[:2] == ["700 root", "600 root"], modes


#: The capabilities the trust model grants the service (README, decision 0017), by their bit numbers.
GRANTED_CAPABILITIES = {"DAC_READ_SEARCH": 2, "KILL": 5, "SYS_PTRACE": 19}


def test_the_service_has_the_reach_the_trust_model_names_and_no_more(deployment: Deployment) -> None:
    """Issue 23, finding 10: what the service container holds, as the engine made it and as the
    kernel sees its process; the others hold none of it."""
    service = deployment.container("service")
    host = service.attrs["HostConfig"]
    assert service.attrs["Config"]["User"] == "0:0"
    assert host["PidMode"] == "host" and host["NetworkMode"] != "host" and host["IpcMode"] != "host"
    assert [name.removeprefix("CAP_") for name in host["CapDrop"]] == ["ALL"]
    assert {name.removeprefix("CAP_") for name in host["CapAdd"]} == set(GRANTED_CAPABILITIES)
    assert not host["Privileged"] and not host.get("Devices") and host["ReadonlyRootfs"]
    assert "no-new-privileges:true" in host["SecurityOpt"]
    binds = sorted(mount["Source"] for mount in service.attrs["Mounts"] if mount["Type"] == "bind")
    assert binds == sorted(["/var/run/docker.sock", "/sys/fs/cgroup", deployment.env["MAI_SAFETY_WORK_DIR"],
                            *(str(path) for path in _override_binds(deployment))]), binds
    # The serving process itself, read on the host: uid 0, the host's pid namespace, three capabilities.
    pid = service.attrs["State"]["Pid"]
    status = dict(line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":\t" in line)
    assert status["Uid"].split()[:2] == ["0", "0"]
    assert int(status["CapEff"], 16) == sum(1 << bit for bit in GRANTED_CAPABILITIES.values())
    assert int(status["CapBnd"], 16) == int(status["CapEff"], 16)  # nothing more to gain by exec
    assert status["NoNewPrivs"].strip() == "1"
    # The engine's (and this test's) pid namespace, not a network namespace of the host's.
    assert os.readlink(f"/proc/{pid}/ns/pid") == os.readlink("/proc/self/ns/pid")
    assert os.readlink(f"/proc/{pid}/ns/net") != os.readlink("/proc/self/ns/net")
    for other in deployment.containers():
        if other.labels["com.docker.compose.service"] != "service":
            assert other.attrs["HostConfig"]["PidMode"] != "host" and not other.attrs["HostConfig"].get("CapAdd"), other.name


def _override_binds(deployment: Deployment) -> list[str]:
    """The test's own read-only additions (the CA and the policies), not the shipped file's."""
    override = yaml.safe_load(deployment.override.read_text())
    return [volume.split(":")[0] for volume in override["services"]["service"]["volumes"]]


def test_stopping_the_service_lets_its_run_finish_then_it_exits_0(deployment: Deployment) -> None:
    """Last of the deployment's tests: it stops the service (and starts it again). With pid: host the
    service is not PID 1 of a namespace of its own, and Docker's SIGTERM reaches `serve`'s drain."""
    made = deployment.compose("exec", "-T", "service", "mai-safety", "tokens", "create", "late", "--role", "submitter", "--json")
    token = json.loads(made.stdout.strip().splitlines()[-1])["token"]
    headers = {"Authorization": f"Bearer {token}"}
    accepted = httpx.post(
        f"{deployment.url}/v1/executions", headers=headers, timeout=60,
        json={"code": "import time\ntime.sleep(3)\nprint('finished')\n", "wait_s": 0},
    )
    assert accepted.status_code == 202, accepted.text
    execution_id = accepted.json()["execution_id"]
    time.sleep(1)
    deployment.compose("stop", "-t", "40", "service")
    service = deployment.container("service")
    service.reload()
    assert service.attrs["State"]["ExitCode"] == 0, deployment.compose("logs", "--no-color", "service", check=False).stdout
    deployment.compose("start", "service")
    deadline = time.monotonic() + 60
    while True:
        try:
            report = httpx.get(f"{deployment.url}/v1/executions/{execution_id}", headers=headers, timeout=5)
            if report.status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the service did not come back"
        time.sleep(0.5)
    assert (report.json()["status"], report.json()["stdout"]) == ("completed", "finished\n"), report.json()


def test_a_wheel_installed_outside_the_checkout_finds_its_policies_and_runs(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(PROJECT_ROOT)],
        check=True, capture_output=True, timeout=300,
    )
    (wheel,) = wheels.glob("mai_safety-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    # The dependencies are this environment's, as a path (a .pth line adds the folder, not the
    # checkout's editable install beside it); the wheel is installed alone: what is under test is
    # that the package finds its own policies, not pip's resolving (setup installs the same pins).
    (site_packages,) = venv.glob("lib/python*/site-packages")
    (site_packages / "zz_dependencies.pth").write_text("".join(f"{path}\n" for path in sys.path if path.endswith("site-packages")))
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-compile", "--no-deps", str(wheel)],
        check=True, capture_output=True, timeout=600,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {name: value for name, value in os.environ.items() if not name.startswith("MAI_SAFETY_")}
    env["HOME"] = str(tmp_path / "home")
    assessed = subprocess.run(
        [str(venv / "bin" / "mai-safety"), "assess", "-", "--format", "json"],
        input="import os\nos.system('rm -rf /')\n", capture_output=True, text=True, cwd=elsewhere, env=env, timeout=120,
    )
    assert assessed.returncode != 2 and assessed.stdout, assessed.stderr
    verdict = json.loads(assessed.stdout)
    # BLOCKED, and by Semgrep's rules too: policies/semgrep/ came with the wheel.
    assert verdict["level"] == "BLOCKED"
    assert {"semgrep", "ast"} <= {finding["analyzer"] for finding in verdict["findings"]}, verdict["findings"]
    policies = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "from mai_safety.infrastructure.settings import Settings; print(Settings.from_environment().policies_dir)"],
        capture_output=True, text=True, cwd=elsewhere, env=env, check=True,
    ).stdout.strip()
    assert policies.startswith(str(venv)) and (Path(policies) / "limits.yaml").is_file(), policies
    # And it runs code: the runner and the policies' limits come from the installed package too.
    ran = subprocess.run(
        [str(venv / "bin" / "mai-safety"), "run", "-", "--json"],
        input="print('from the wheel')\n", capture_output=True, text=True, cwd=elsewhere, env=env, timeout=120,
    )
    report = json.loads(ran.stdout)
    assert (ran.returncode, report["status"], report["stdout"]) == (0, "completed", "from the wheel\n"), ran.stderr
