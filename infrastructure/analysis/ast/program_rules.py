"""What one program run with its arguments does, judged rule by rule.

Each rule looks at one kind of program (``rm``, ``dd``, ``chmod``, ``iptables``, ...) and either
does not apply (None) or gives its hits. The rules are asked in the order of ``_RULES``: a deciding
rule that applies ends the judgement, an adding rule that applies notes its hits and lets the later
rules speak too. Programs that run other programs (``sudo``, ``env``, ``sh -c``) are unwrapped
before these rules, in ``command_lines``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..sensitive_paths import SensitivePaths
from . import rules
from .commands import PLACEHOLDER, CommandHit, normalise_path, program_name, system_path, wipe_target, write_target_hits


@dataclass(frozen=True)
class Argv:
    """One program's words, as the rules read them: its name, its arguments, and those lowered."""

    words: list[str]
    name: str
    args: list[str]
    lowered: list[str]
    depth: int
    paths: SensitivePaths | None

    @classmethod
    def of(cls, words: list[str], depth: int, paths: SensitivePaths | None) -> Argv:
        args = words[1:]
        return cls(words, program_name(words[0]), args, [word.lower() for word in args], depth, paths)


Judge = Callable[[Argv], list[CommandHit] | None]


@dataclass(frozen=True)
class _Rule:
    judge: Judge
    decides: bool  # when it applies, no later rule is asked


def _deciding(judge: Judge) -> _Rule:
    return _Rule(judge, True)


def _adding(judge: Judge) -> _Rule:
    return _Rule(judge, False)


def program_hits(argv: Argv) -> list[CommandHit]:
    """The hits of the rules that apply to ``argv``, up to the first deciding one."""
    hits: list[CommandHit] = []
    for rule in _RULES:
        found = rule.judge(argv)
        if found is None:
            continue
        hits.extend(found)
        if rule.decides:
            break
    return hits


def _wipe(detail: str) -> list[CommandHit]:
    return [CommandHit("destructive-wipe", detail, True)]


def _disables_security(detail: str) -> list[CommandHit]:
    return [CommandHit("disable-security", detail, True)]


def _positional(args: list[str]) -> list[str]:
    return [word for word in args if not word.startswith("-")]


# --- deleting and wiping -------------------------------------------------------------------------


def _rm(c: Argv) -> list[CommandHit] | None:
    if c.name != "rm":
        return None
    recursive = any(word.startswith("-") and not word.startswith("--") and "r" in word.lower() for word in c.args) or "--recursive" in c.args
    targets = _positional(c.args)
    if recursive and any(wipe_target(target) for target in targets):
        return _wipe(f"recursively deletes {next(t for t in targets if wipe_target(t))}")
    if "--no-preserve-root" in c.args:
        return _wipe("deletes with --no-preserve-root")
    if any(rules.SECURITY_PATHS.search(normalise_path(target)) for target in targets):
        return _disables_security("deletes logs or security configuration")
    if any(system_path(target) for target in targets):
        return [CommandHit("system-path-write", "deletes files in a system folder", False)]
    return []


def _file_system_erased(c: Argv) -> list[CommandHit] | None:
    name, args, lowered = c.name, c.args, c.lowered
    if not (name.startswith("mkfs") or name in ("wipefs", "fdisk", "sfdisk", "parted") and any(a.startswith("/dev/") for a in args)):
        return None
    if name.startswith("mkfs") or name == "wipefs" or any(a in ("-a", "--all", "mklabel", "rm") for a in lowered):
        return _wipe(f"`{name}` erases a file system")
    return None


def _volumes_destroyed(c: Argv) -> list[CommandHit] | None:
    name, lowered = c.name, c.lowered
    if name in ("lvremove", "vgremove", "pvremove", "blkdiscard") or (name in ("zpool", "zfs") and "destroy" in lowered) or (
            name == "sgdisk" and {"--zap-all", "-z", "--clear", "-o"} & set(lowered)):
        return _wipe(f"`{' '.join(c.words[:2])}` destroys volumes, pools or a disk's data")
    return None


def _dd_onto_a_disk(c: Argv) -> list[CommandHit] | None:
    if c.name == "dd" and any(re.match(r"of=/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper)", a) for a in c.lowered):
        return _wipe("overwrites a disk device with dd")
    return None


def _shred_of_a_disk(c: Argv) -> list[CommandHit] | None:
    if c.name == "shred" and any(a.startswith("/dev/") or wipe_target(a) for a in c.args):
        return _wipe("shreds a disk device or a top-level folder")
    return None


def _files_shredded(c: Argv) -> list[CommandHit] | None:
    if c.name in ("shred", "srm", "wipe") and _positional(c.args):
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


def _rsync_delete(c: Argv) -> list[CommandHit] | None:
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


def _recovery_destroyed(c: Argv) -> list[CommandHit] | None:
    name, lowered = c.name, c.lowered
    if (name in ("vssadmin", "vssadmin.exe", "wmic") and "delete" in lowered and any("shadow" in a for a in lowered)) or (
        name in ("wbadmin", "wbadmin.exe") and "delete" in lowered) or (
        name in ("bcdedit", "bcdedit.exe") and any(a in ("recoveryenabled", "bootstatuspolicy") for a in lowered)) or (
        name in ("cipher", "cipher.exe") and any(a.startswith("/w") for a in lowered)):
        return _wipe(f"`{name}` destroys backups or recovery, or wipes free space (ransomware's first steps)")
    return None


def _find_deleting_everything(c: Argv) -> list[CommandHit] | None:
    args, lowered = c.args, c.lowered
    if c.name == "find" and args and wipe_target(args[0]) and ("-delete" in lowered or ("-exec" in lowered and "rm" in lowered)):
        return _wipe(f"deletes everything found under {args[0]}")
    return None


def _permissions_changed(c: Argv) -> list[CommandHit] | None:
    name, args = c.name, c.args
    if name not in ("chmod", "chown", "chgrp"):
        return None
    targets = _positional(args)[1:]
    if any(word in ("-r", "-R", "--recursive") for word in args) and any(wipe_target(t) for t in targets):
        return _wipe(f"recursively changes `{name}` of a top-level folder")
    if name == "chmod" and args and any(re.fullmatch(r"([ugoa]*\+[rwx]*s[rwx]*|[2467][0-7]{3})", word) for word in args):
        return [CommandHit("system-path-permission", "sets the set-uid/set-gid bit", False)]
    if name != "chmod" or any(system_path(t) for t in targets):
        return [CommandHit("system-path-permission", f"`{name}` on {' '.join(targets) or 'files'}", False)]
    return []


# --- protection switched off ------------------------------------------------------------------


def _selinux_off(c: Argv) -> list[CommandHit] | None:
    if c.name == "setenforce" and c.lowered[:1] and c.lowered[0] in ("0", "permissive"):
        return _disables_security("switches SELinux off (setenforce 0)")
    return None


def _firewall_or_apparmor_off(c: Argv) -> list[CommandHit] | None:
    name = c.name
    if name == "ufw" and "disable" in c.lowered or name in ("aa-teardown", "aa-disable", "aa-complain") or (
        name == "apparmor_parser" and ("-r" in c.lowered and "-R" in c.args)
    ):
        return _disables_security(f"switches the firewall or AppArmor off (`{name}`)")
    return None


def _security_service_stopped(c: Argv) -> list[CommandHit] | None:
    words, lowered = c.words, c.lowered
    if not (c.name in ("systemctl", "service", "chkconfig", "update-rc.d", "rc-service", "launchctl") or re.match(r"/etc/init\.d/", words[0])):
        return None
    stopping = {"stop", "disable", "mask", "kill", "off", "unload", "remove"} & set(lowered)
    services = set(lowered) | ({program_name(words[0])} if words[0].startswith("/etc/init.d/") else set())
    if stopping and any(rules.SECURITY_PROCESS_NAME.search(s) or s.removesuffix(".service") in rules.SECURITY_TOOLS for s in services):
        return _disables_security(f"stops security tooling ({' '.join(words[:4])})")
    return None


_KILLERS = ("pkill", "killall", "kill", "taskkill", "skill")


def _security_process_killed(c: Argv) -> list[CommandHit] | None:
    if c.name in _KILLERS and any(rules.SECURITY_PROCESS_NAME.search(word) or word in rules.SECURITY_TOOLS for word in c.lowered):
        return _disables_security(f"kills security tooling ({' '.join(c.words[:4])})")
    return None


def _every_process_signalled(c: Argv) -> list[CommandHit] | None:
    if c.name in ("kill", "pkill") and any(word in ("-1", "1") for word in c.args[-1:]):
        return [CommandHit("privileged-command", "signals every process or init", False)]
    return None


_ONLY_ASKING = {"-0", "-s0", "-l", "-L", "--list", "-V", "--version", "/?", "-h", "--help"}


def _other_processes_stopped(c: Argv) -> list[CommandHit] | None:
    args = c.args
    if c.name in (*_KILLERS, "xkill", "pkill.exe", "taskkill.exe") and args and not (_ONLY_ASKING & set(args) or "$!" in args):
        return [CommandHit("process-control", f"stops other processes ({' '.join(c.words[:4])})", False)]
    return None


def _audit_off(c: Argv) -> list[CommandHit] | None:
    lowered = c.lowered
    if c.name == "auditctl" and (("-e" in lowered and "0" in lowered) or "-d" in lowered):
        return _disables_security("switches the audit system off")
    return None


def _iptables_flushed(c: Argv) -> list[CommandHit] | None:
    lowered = c.lowered
    if c.name in ("iptables", "ip6tables", "iptables-legacy", "ebtables") and (
        {"-f", "--flush", "-x"} & set(lowered) or ("-p" in lowered and "accept" in lowered)
    ):
        return _disables_security("flushes the firewall rules")
    return None


def _nft_flushed(c: Argv) -> list[CommandHit] | None:
    if c.name == "nft" and "flush" in c.lowered:
        return _disables_security("flushes the firewall rules (nft flush)")
    return None


def _aslr_off(c: Argv) -> list[CommandHit] | None:
    if c.name == "sysctl" and any("randomize_va_space=0" in word or "modules_disabled=0" in word for word in c.lowered):
        return _disables_security("switches address-space randomisation off")
    return None


def _logs_erased(c: Argv) -> list[CommandHit] | None:
    if c.name in ("truncate", "shred") and any(rules.SECURITY_PATHS.search(normalise_path(a)) for a in c.args):
        return _disables_security("erases logs")
    return None


def _journal_erased(c: Argv) -> list[CommandHit] | None:
    if c.name == "journalctl" and any(word.startswith("--vacuum") or word == "--rotate" for word in c.lowered):
        return _disables_security("erases the system journal")
    return None


# --- miners, shells handed out, persistence ------------------------------------------------------


def _miner(c: Argv) -> list[CommandHit] | None:
    if rules.MINER_BINARIES.search(c.name) or (c.name.startswith("./") and rules.MINER_BINARIES.search(c.words[0])):
        return [CommandHit("crypto-miner", f"runs the miner `{c.name}`", True)]
    return None


def _netcat_shell(c: Argv) -> list[CommandHit] | None:
    if c.name in ("nc", "ncat", "netcat") and any(re.fullmatch(r"-[a-z]*[ec]", word) for word in c.lowered):
        return [CommandHit("reverse-shell", "netcat with -e/-c hands a shell to the network", True)]
    return None


def _git_hooks_redirected(c: Argv) -> list[CommandHit] | None:
    lowered = c.lowered
    if c.name == "git" and "config" in lowered and {"core.hookspath", "init.templatedir"} & set(lowered) and len(c.args) > 2:
        return [CommandHit("persistence", "points git's hooks at a folder of its choosing: they run in every repository", False)]
    return None


def _runs_later(c: Argv) -> list[CommandHit] | None:
    name = c.name
    if name == "crontab" or any(rules.PERSISTENCE_PATHS.search(normalise_path(a)) for a in c.args if name in ("tee", "cp", "mv", "install", "ln")):
        return [CommandHit("persistence", f"`{name}` installs something that runs later", False)]
    return None


def _file_written(c: Argv) -> list[CommandHit] | None:
    if not (c.name in ("tee", "cp", "mv", "install", "ln", "touch", "mkdir", "sed") and c.args):
        return None
    hits: list[CommandHit] = []
    for target in _positional(c.args)[-1:]:
        hits.extend(write_target_hits(normalise_path(target), f"`{c.name}`"))
    return hits or None


# --- Docker and administrative commands -----------------------------------------------------------


def _docker_only_looking(c: Argv) -> list[CommandHit] | None:
    if c.name == "docker" and docker_only_looks(c.args):
        return []  # a status query: command-exec at most
    return None


def _compose_of_the_project(c: Argv) -> list[CommandHit] | None:
    if (c.name == "docker" and c.args[:1] == ["compose"] or c.name == "docker-compose") and compose_of_the_project(c.args):
        return []  # the project's own services, from its compose file: command-exec at most
    return None


def _administrative(c: Argv) -> list[CommandHit] | None:
    if c.name in rules.PRIVILEGED_COMMANDS:
        return [CommandHit("privileged-command", f"runs the administrative command `{c.name}`", False)]
    return None


def _docker_daemon(c: Argv) -> list[CommandHit] | None:
    if c.name == "docker" or "docker.sock" in " ".join(c.args):
        return [CommandHit("docker-socket", "talks to the Docker daemon, which is root on the host", False)]
    return None


# Docker subcommands that only look (the daemon is still root, but nothing is started or changed).
_DOCKER_LOOKING = frozenset({"ps", "ls", "images", "image ls", "version", "info", "inspect", "logs", "stats", "top", "config", "events",
                             "port", "history", "search", "compose ps", "compose ls", "compose config", "compose logs", "compose version",
                             "compose images", "compose top", "container ls", "volume ls", "network ls", "context ls", "system df"})


_COMPOSE_PROJECT = frozenset({"up", "down", "build", "pull", "start", "stop", "restart", "logs", "ps", "config", "ls", "images",
                              "top", "version", "create", "rm", "push", "wait"})


def compose_of_the_project(args: list[str]) -> bool:
    """`docker compose up/down/build...` with the working directory's compose file: the project's own
    services. Not when it points at another file or project, adds mounts or privileges."""
    words = args[1:] if args[:1] == ["compose"] else args
    if any(word in ("-f", "--file", "--project-directory", "-v", "--volume", "--privileged") or word.startswith(("--file=", "--project-directory="))
           for word in words):
        return False
    commands = [word for word in words if not word.startswith("-")]
    return bool(commands) and commands[0] in _COMPOSE_PROJECT


def docker_only_looks(args: list[str]) -> bool:
    words = [a for a in args if not a.startswith("-")]
    return " ".join(words[:2]) in _DOCKER_LOOKING or (words[:1] and words[0] in _DOCKER_LOOKING and words[0] != "compose")


_RULES: tuple[_Rule, ...] = (
    _deciding(_rm),
    _deciding(_file_system_erased),
    _deciding(_volumes_destroyed),
    _deciding(_dd_onto_a_disk),
    _deciding(_shred_of_a_disk),
    _deciding(_files_shredded),
    _deciding(_rsync_delete),
    _deciding(_recovery_destroyed),
    _deciding(_find_deleting_everything),
    _deciding(_permissions_changed),
    _deciding(_selinux_off),
    _deciding(_firewall_or_apparmor_off),
    _deciding(_security_service_stopped),
    _deciding(_security_process_killed),
    _adding(_every_process_signalled),
    _adding(_other_processes_stopped),
    _deciding(_audit_off),
    _deciding(_iptables_flushed),
    _deciding(_nft_flushed),
    _deciding(_aslr_off),
    _deciding(_logs_erased),
    _deciding(_journal_erased),
    _deciding(_miner),
    _deciding(_netcat_shell),
    _deciding(_git_hooks_redirected),
    _deciding(_runs_later),
    _deciding(_file_written),
    _deciding(_docker_only_looking),
    _deciding(_compose_of_the_project),
    _adding(_administrative),
    _adding(_docker_daemon),
)
