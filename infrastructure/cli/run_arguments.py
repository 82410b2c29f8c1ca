"""The arguments of ``run``, in a module of their own: the local CLI (``local.py``) and the client of
the per-user service (``user_service.py``) read the same command line, and the client imports
nothing heavy to do it."""

from __future__ import annotations

import argparse

from .run_files import add_file_arguments

#: domain.levels.Provenance and domain.network.NetworkMode, by value (a unit test keeps them equal):
#: importing the domain's modules costs a one-run command ~50 ms (dataclasses, inspect).
PROVENANCES = ("mai", "user", "external")
NETWORK_MODES = ("none", "deps")

#: Without the per-user service: this process assesses, runs and records, as before issue #29.
NO_SERVICE = "--no-service"


def add_service_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        NO_SERVICE, action="store_true",
        help="do it in this process, without the per-user service (also MAI_SAFETY_LOCAL_SERVICE=0; see docs/local-service.md)",
    )


def add_run_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument("file", help="a Python file, or - for standard input")
    run.add_argument("--provenance", choices=PROVENANCES, default="mai")
    run.add_argument("--timeout", type=float, metavar="SECONDS", help="lower the wall-clock limit")
    run.add_argument("--memory", metavar="SIZE", help="lower the memory limit, e.g. 128m")
    run.add_argument("--cpus", type=float, metavar="N", help="lower the CPU quota")
    run.add_argument("--pids", type=int, metavar="N", help="lower the process limit")
    run.add_argument("--output-limit", metavar="SIZE", help="lower the captured output cap, e.g. 64k")
    run.add_argument("--cpu-seconds", type=float, metavar="SECONDS", help="the CPU time the run may use")
    run.add_argument(
        "--network", choices=NETWORK_MODES, default="none",
        help="none (default), or deps: read-only egress to the allow-list, for dependencies and documentation",
    )
    run.add_argument(
        "--requirement", "-r", action="append", default=[], metavar="REQ",
        help="a package to install before the code runs (with --network deps; repeatable)",
    )
    run.add_argument("--confirm", action="store_true", help="confirm HIGH code without a prompt")
    run.add_argument("--override", metavar="EXPLANATION", help="override BLOCKED code, with a written explanation")
    run.add_argument("--json", action="store_true", help="print one JSON object")
    run.add_argument("--revises", metavar="ID", help="the execution this code revises: a diff against its code is recorded")
    add_file_arguments(run)
    run.add_argument(
        "--follow-symlinks", action="store_true",
        help="read FILE even where it is a symlink to a file outside its own directory",
    )
    add_service_argument(run)


#: What ``run`` asks for and ``approve`` cannot change: an answer runs what was asked when the code
#: was submitted (recorded on OverrideRequested).
RUN_ONLY_FLAGS = (
    "--timeout", "--memory", "--cpus", "--pids", "--output-limit", "--cpu-seconds",
    "--network", "--requirement", "--provenance",
)


def add_approve_arguments(approve: argparse.ArgumentParser) -> None:
    approve.add_argument("execution_id")
    approve.add_argument("--explanation", default="", help="why; required to override BLOCKED code")
    approve.add_argument("--json", action="store_true")
    for flag in RUN_ONLY_FLAGS:  # refused with a message that says why, rather than argparse's "unrecognized"
        names = [flag, "-r"] if flag == "--requirement" else [flag]
        approve.add_argument(*names, dest=f"run_only_{flag[2:].replace('-', '_')}", action="append", help=argparse.SUPPRESS)
    add_service_argument(approve)


def run_only_flags_given(args: argparse.Namespace) -> list[str]:
    return [flag for flag in RUN_ONLY_FLAGS if getattr(args, f"run_only_{flag[2:].replace('-', '_')}") is not None]


def run_only_refusal(args: argparse.Namespace, given: list[str]) -> str:
    return (
        f"approve takes no {', '.join(given)}: it runs the limits and network execution {args.execution_id} "
        "asked for when it was submitted; deny it and submit the code again with the ones you want"
    )
