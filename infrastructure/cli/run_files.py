"""``run``'s files, for both doors of the CLI (local and MAI_SAFETY_URL): ``--file PATH[:NAME]``
read through the same checks as FILE (infrastructure/input_files.py), and ``--output-dir DIR``
written after the run through infrastructure/output_files.py (names checked again, nothing
outside DIR, no file overwritten without ``--force``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..input_files import MAX_RUN_FILE_BYTES, read_run_files
from ..output_files import check_output_dir, write_outputs
from .terminal import visible_line


def add_file_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument(
        "--file", dest="input_files", action="append", default=[], metavar="PATH[:NAME]",
        help="a file placed in the run's working directory under its base name, or NAME (repeatable); a .py is judged with the code",
    )
    run.add_argument("--output-dir", metavar="DIR", help="write the files the run created or changed into DIR after it ends")
    run.add_argument("--force", action="store_true", help="with --output-dir: overwrite files already in DIR")
    run.add_argument("--image", default="default", metavar="NAME", help="the sandbox image: default, or one the policy grants (data: numpy, pandas, matplotlib, scipy)")


def read_input_files(args: argparse.Namespace) -> list[tuple[str, bytes]]:
    """Before anything runs: the --file inputs, and a usable --output-dir."""
    files = read_run_files(args.input_files, MAX_RUN_FILE_BYTES, follow_symlinks=args.follow_symlinks)
    if args.output_dir:
        check_output_dir(args.output_dir)
    return files


def save_output_files(args: argparse.Namespace, report: Mapping[str, Any], fetch: Callable[[str], bytes]) -> list[str]:
    """After the run: its output files, fetched by name, written below --output-dir (none without it)."""
    records: Sequence[Mapping[str, Any]] = report.get("files_out") or []
    if not records:
        return []
    if not args.output_dir:
        if not args.json:
            for record in records:
                print(visible_line(f"file out: {record['name']} ({record['bytes']} bytes, sha256 {record['sha256'][:16]}…)"))
            print("(--output-dir DIR writes them)")
        return []
    written = write_outputs(args.output_dir, [(record["name"], fetch(record["name"])) for record in records], force=args.force)
    if not args.json:
        for path in written:
            print(visible_line(f"wrote {path}"))
    return written
