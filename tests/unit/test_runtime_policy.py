"""The runtime per trust level: read and checked from policies/limits.yaml, carried to the sandbox,
recorded on Started, and never given --network deps under runsc (decision 0013)."""

from __future__ import annotations

import shutil
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from mai_safety.application.errors import ConfigurationError
from mai_safety.application.executions import MaiSafety
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits, TrustRule
from mai_safety.domain.network import EgressPolicy, NetworkMode, NetworkNotAllowed
from mai_safety.domain.supervision import Peaks, Usage, find_violation
from mai_safety.infrastructure.policies import load_policies
from mai_safety.infrastructure.sandbox.runtimes import gvisor_death, gvisor_host_tasks
from mai_safety.infrastructure.cli.hints import cli_message
from mai_safety.infrastructure.settings import PROJECT_ROOT

from .fakes import FakeAssessor, FakeSandbox

PROFILE = ResourceLimits(cpus=1, memory_bytes=2**29, pids=128, timeout_s=60, output_bytes=2**22, tmpfs_bytes=2**27)
GATE = ExecutionPolicy(
    profiles={trust: PROFILE for trust in TrustLevel},
    trust_rules=(TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),),
    max_code_bytes=1024,
    runtimes={TrustLevel.STANDARD: "runc", TrustLevel.UNTRUSTED: "auto"},
)


def _policies(tmp_path: Path, **profiles: object) -> Path:
    folder = tmp_path / "policies"
    shutil.copytree(PROJECT_ROOT / "policies", folder)
    data = yaml.safe_load((folder / "limits.yaml").read_text())
    for name, runtime in profiles.items():
        if runtime is None:
            data["profiles"][name].pop("runtime", None)
        else:
            data["profiles"][name]["runtime"] = runtime
    (folder / "limits.yaml").write_text(yaml.safe_dump(data))
    return folder


def _app(gate: ExecutionPolicy = GATE, level: RiskLevel = RiskLevel.LOW) -> tuple[MaiSafety, FakeSandbox]:
    sandbox = FakeSandbox()
    env = {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    return MaiSafety(assessor=FakeAssessor(level), sandbox=sandbox, policy=gate, env=env), sandbox


def test_the_shipped_policy_gives_untrusted_code_auto_and_the_rest_runc() -> None:
    runtimes = load_policies(PROJECT_ROOT / "policies").limits.runtimes
    assert runtimes == {TrustLevel.TRUSTED: "runc", TrustLevel.STANDARD: "runc", TrustLevel.UNTRUSTED: "auto"}


def test_a_profile_without_a_runtime_gets_runc(tmp_path: Path) -> None:
    runtimes = load_policies(_policies(tmp_path, untrusted=None)).limits.runtimes
    assert runtimes[TrustLevel.UNTRUSTED] == "runc"


def test_an_unknown_runtime_is_refused_naming_the_file_the_key_and_what_is_expected(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError) as caught:
        load_policies(_policies(tmp_path, untrusted="gvisor"))
    message = caught.value.message
    assert "limits.yaml" in message and "profiles.untrusted.runtime" in message
    assert "'runc', 'runsc' or 'auto'" in message and "'gvisor'" in message


def test_the_profiles_runtime_reaches_the_sandbox_and_the_started_event() -> None:
    app, sandbox = _app()
    report = app.run(b"print(1)\n", provenance=Provenance.MAI)
    assert sandbox.runtimes == ["runc"]
    external = app.run(b"print(1)\n", provenance=Provenance.EXTERNAL)
    assert sandbox.runtimes == ["runc", "auto"]
    assert app.history(external.execution_id)[1]["runtime"] == {"name": "runc", "requested": "auto"}
    assert app.history(report.execution_id)[1]["runtime"]["name"] == "runc"


def test_network_deps_is_refused_before_anything_is_recorded_for_a_runsc_profile() -> None:
    gate = replace(
        GATE,
        runtimes={TrustLevel.STANDARD: "runsc"},
        egress=EgressPolicy(allow=("pypi.org",), trust_levels=(TrustLevel.STANDARD,)),
    )
    app, sandbox = _app(gate)
    with pytest.raises(NetworkNotAllowed, match=r"runtime runsc") as refused:
        app.run(b"print(1)\n", network=NetworkMode.DEPS)
    assert (refused.value.trust, refused.value.runtime) == ("standard", "runsc")
    assert "policies/limits.yaml runs it under gVisor (runtime: runsc)" in cli_message(refused.value)
    assert app.verify().checked == 0 and sandbox.prepared == []


# --- why gVisor's kernel ended under a running program (runtimes.gvisor_death) -------------------


def _peaks(**values: float) -> Peaks:
    peaks = Peaks()
    peaks.values.update(values)
    return peaks


def test_a_gvisor_sandbox_ended_after_the_host_refused_its_kernel_a_task_ended_at_the_pids_limit() -> None:
    # A fork bomb held at RLIMIT_NPROC still makes gVisor's ptrace platform ask the host for tasks;
    # the sentry panics at the first the host's pids cgroup refuses (seen: exit status 2, CI).
    refused = gvisor_death(False, PROFILE, _peaks(pids=9), 2.0, host_tasks=(410, 1))
    assert refused is not None and (refused.reason, refused.observed, refused.allowed) == ("pids", 9, PROFILE.pids)
    crowded = gvisor_death(False, PROFILE, _peaks(), 2.0, host_tasks=(int(0.8 * gvisor_host_tasks(PROFILE.pids)), 0))
    assert crowded is not None and crowded.reason == "pids"


def test_a_gvisor_sandbox_ended_with_room_left_is_not_blamed_on_a_limit() -> None:
    assert gvisor_death(False, PROFILE, _peaks(memory_peak_bytes=PROFILE.memory_bytes // 2, pids=3), 1.0, host_tasks=(60, 0)) is None
    memory = gvisor_death(False, PROFILE, _peaks(memory_peak_bytes=PROFILE.memory_bytes), 1.0, host_tasks=(500, 1))
    assert memory is not None and memory.reason == "memory"  # memory is read first, as the engine flags it


def test_an_oom_kill_before_any_reading_is_recorded_at_the_limit_not_at_zero() -> None:
    # gVisor's kernel killed by the host within one sample: the cgroup is gone at the first reading.
    unread = Usage(1.26, 0.0, 0, 0, 0, 0, False, 0, oom_kills=1)
    violation = find_violation(PROFILE, unread)
    assert violation is not None and (violation.reason, violation.observed) == ("memory", PROFILE.memory_bytes)
    read = find_violation(PROFILE, replace(unread, memory_peak_bytes=PROFILE.memory_bytes + 4096))
    assert read is not None and read.observed == PROFILE.memory_bytes + 4096
