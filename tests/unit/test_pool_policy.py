"""The warm pool's policy (docs/decisions/0015): read and checked from policies/limits.yaml like the
rest, none as shipped, and turned into one spec per profile at the profile's minimum."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.levels import TrustLevel
from mai_safety.infrastructure.bootstrap import _pool_specs
from mai_safety.infrastructure.policies import load_policies
from mai_safety.infrastructure.settings import PROJECT_ROOT


def _policies(tmp_path: Path, pool: object) -> Path:
    folder = tmp_path / "policies"
    shutil.copytree(PROJECT_ROOT / "policies", folder)
    data = yaml.safe_load((folder / "limits.yaml").read_text())
    if pool is None:
        data.pop("pool", None)
    else:
        data["pool"] = pool
    (folder / "limits.yaml").write_text(yaml.safe_dump(data))
    return folder


def test_as_shipped_two_wait_for_standard_runs_and_the_cli_keeps_none() -> None:
    limits = load_policies(PROJECT_ROOT / "policies").limits
    assert {name.value: size for name, size in limits.pool.sizes.items()} == {"trusted": 0, "standard": 2, "untrusted": 0}
    assert [(spec.name, spec.size) for spec in _pool_specs(limits, None)] == [("standard", 2)]
    assert _pool_specs(limits, False) == ()


def test_a_missing_section_means_no_pool(tmp_path: Path) -> None:
    limits = load_policies(_policies(tmp_path, None)).limits
    assert limits.pool.sizes == {} and _pool_specs(limits, None) == ()


def test_sizes_become_specs_at_the_profiles_minimum_under_their_runtime(tmp_path: Path) -> None:
    limits = load_policies(_policies(tmp_path, {"sizes": {"standard": 2, "untrusted": 1}, "max_idle_s": 60})).limits
    specs = {spec.name: spec for spec in _pool_specs(limits, None)}
    assert set(specs) == {"standard", "untrusted"}
    standard = limits.profiles[TrustLevel.STANDARD]
    assert specs["standard"].limits == standard.minimum and specs["standard"].size == 2
    assert specs["standard"].max_timeout_s == standard.maximum.timeout_s
    assert specs["untrusted"].runtime == limits.runtimes[TrustLevel.UNTRUSTED]
    assert limits.pool.max_idle_s == 60


def test_the_cli_keeps_no_pool_whatever_the_policy_says(tmp_path: Path) -> None:
    limits = load_policies(_policies(tmp_path, {"sizes": {"standard": 2}})).limits
    assert _pool_specs(limits, False) == ()
    assert [spec.name for spec in _pool_specs(limits, {"trusted": 1})] == ["trusted"]
    with pytest.raises(ConfigurationError):
        _pool_specs(limits, {"nobody": 1})


@pytest.mark.parametrize(
    "pool",
    [{"sizes": {"standard": -1}}, {"sizes": {"standard": 17}}, {"sizes": {"admin": 1}}, {"max_idle_s": 1}, {"size": 2}],
)
def test_a_bad_pool_section_is_refused(tmp_path: Path, pool: object) -> None:
    with pytest.raises(ConfigurationError):
        load_policies(_policies(tmp_path, pool))
