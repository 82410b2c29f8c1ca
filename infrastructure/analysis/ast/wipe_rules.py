"""Programs that delete, wipe or lock away what a machine holds: the rules ``program_rules`` asks.

Each rule gives None when it does not apply, else its hits: ``rm -rf /``, ``mkfs``, ``dd`` onto a
disk, ``shred``, ``rsync --delete`` from an empty folder, shadow copies deleted, ``find -delete``
from a top-level folder, ``chmod -R`` and set-uid bits.
"""

from __future__ import annotations

import re

from . import rules
from .commands import PLACEHOLDER, Argv, CommandHit, normalise_path, system_path, wipe_target


def _wipe(detail: str) -> list[CommandHit]:
    return [CommandHit("destructive-wipe", detail, True)]


def rm(c: Argv) -> list[CommandHit] | None:
    if c.name != "rm":
        return None
    recursive = any(word.startswith("-") and not word.startswith("--") and "r" in word.lower() for word in c.args) or "--recursive" in c.args
    targets = c.positional
    if recursive and any(wipe_target(target) for target in targets):
        return _wipe(f"recursively deletes {next(t for t in targets if wipe_target(t))}")
    if "--no-preserve-root" in c.args:
        return _wipe("deletes with --no-preserve-root")
    if any(rules.SECURITY_PATHS.search(normalise_path(target)) for target in targets):
        return [CommandHit("disable-security", "deletes logs or security configuration", True)]
    if any(system_path(target) for target in targets):
        return [CommandHit("system-path-write", "deletes files in a system folder", False)]
    return []


def file_system_erased(c: Argv) -> list[CommandHit] | None:
    name, args, lowered = c.name, c.args, c.lowered
    if not (name.startswith("mkfs") or name in ("wipefs", "fdisk", "sfdisk", "parted") and any(a.startswith("/dev/") for a in args)):
        return None
    if name.startswith("mkfs") or name == "wipefs" or any(a in ("-a", "--all", "mklabel", "rm") for a in lowered):
        return _wipe(f"`{name}` erases a file system")
    return None


def volumes_destroyed(c: Argv) -> list[CommandHit] | None:
    name, lowered = c.name, c.lowered
    if name in ("lvremove", "vgremove", "pvremove", "blkdiscard") or (name in ("zpool", "zfs") and "destroy" in lowered) or (
            name == "sgdisk" and {"--zap-all", "-z", "--clear", "-o"} & set(lowered)):
        return _wipe(f"`{' '.join(c.words[:2])}` destroys volumes, pools or a disk's data")
    return None


def dd_onto_a_disk(c: Argv) -> list[CommandHit] | None:
    if c.name == "dd" and any(re.match(r"of=/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper)", a) for a in c.lowered):
        return _wipe("overwrites a disk device with dd")
    return None


def shred_of_a_disk(c: Argv) -> list[CommandHit] | None:
    if c.name == "shred" and any(a.startswith("/dev/") or wipe_target(a) for a in c.args):
        return _wipe("shreds a disk device or a top-level folder")
    return None


def files_shredded(c: Argv) -> list[CommandHit] | None:
    if c.name in ("shred", "srm", "wipe") and c.positional:
        return [CommandHit("destructive-sweep", f"`{c.name}` overwrites files beyond recovery", False)]
    return None


_RSYNC_OPTIONS_WITH_A_VALUE = ("--exclude", "--include", "-e", "--rsh", "--filter", "-f", "--exclude-from", "--include-from")


def _rsync_positional(args: list[str]) -> list[str]:
    positional, skip = [], False
    for word in args:
        if skip:
            skip = False
        elif word in _RSYNC_OPTIONS_WITH_A_VALUE:
            skip = True  # the option's value, not a source
        elif not word.startswith("-"):
            positional.append(word)
    return positional


def rsync_delete(c: Argv) -> list[CommandHit] | None:
    if not (c.name == "rsync" and any(a.startswith("--delete") for a in c.lowered)):
        return None
    positional = _rsync_positional(c.args)
    target, sources = positional[-1:], positional[:-1]
    # mirroring nothing (an empty or fresh scratch folder) onto a folder empties it; mirroring
    # the program's own folder onto a backup drive is a backup
    empty = any(src.startswith(("/tmp/", "/var/tmp/", "/dev/null")) or "empty" in src.lower() for src in sources)
    if target and wipe_target(target[0]):
        return _wipe(f"rsync --delete empties {target[0]}")
    if target and empty and (target[0].startswith(("/", "~")) or PLACEHOLDER in target[0]):
        return [CommandHit("destructive-sweep", f"rsync --delete mirrors an empty folder onto {target[0]}, removing what it holds", False)]
    return []


def recovery_destroyed(c: Argv) -> list[CommandHit] | None:
    name, lowered = c.name, c.lowered
    if (name in ("vssadmin", "vssadmin.exe", "wmic") and "delete" in lowered and any("shadow" in a for a in lowered)) or (
        name in ("wbadmin", "wbadmin.exe") and "delete" in lowered) or (
        name in ("bcdedit", "bcdedit.exe") and any(a in ("recoveryenabled", "bootstatuspolicy") for a in lowered)) or (
        name in ("cipher", "cipher.exe") and any(a.startswith("/w") for a in lowered)):
        return _wipe(f"`{name}` destroys backups or recovery, or wipes free space (ransomware's first steps)")
    return None


def find_deleting_everything(c: Argv) -> list[CommandHit] | None:
    args, lowered = c.args, c.lowered
    if c.name == "find" and args and wipe_target(args[0]) and ("-delete" in lowered or ("-exec" in lowered and "rm" in lowered)):
        return _wipe(f"deletes everything found under {args[0]}")
    return None


def permissions_changed(c: Argv) -> list[CommandHit] | None:
    name, args = c.name, c.args
    if name not in ("chmod", "chown", "chgrp"):
        return None
    targets = c.positional[1:]
    if any(word in ("-r", "-R", "--recursive") for word in args) and any(wipe_target(t) for t in targets):
        return _wipe(f"recursively changes `{name}` of a top-level folder")
    if name == "chmod" and args and any(re.fullmatch(r"([ugoa]*\+[rwx]*s[rwx]*|[2467][0-7]{3})", word) for word in args):
        return [CommandHit("system-path-permission", "sets the set-uid/set-gid bit", False)]
    if name != "chmod" or any(system_path(t) for t in targets):
        return [CommandHit("system-path-permission", f"`{name}` on {' '.join(targets) or 'files'}", False)]
    return []

