"""The run command's choices, written out by value in cli/run_arguments.py so that the client of the
per-user service imports no domain module to read its command line, are the domain's."""

from __future__ import annotations

from mai_safety.domain.levels import Provenance
from mai_safety.domain.network import NetworkMode
from mai_safety.infrastructure.cli import run_arguments


def test_the_run_commands_provenances_and_network_modes_are_the_domains() -> None:
    assert run_arguments.PROVENANCES == tuple(item.value for item in Provenance)
    assert run_arguments.NETWORK_MODES == tuple(item.value for item in NetworkMode)
