"""What one program run with its arguments does, judged rule by rule.

Each rule looks at one kind of program (``rm``, ``dd``, ``chmod``, ``iptables``, ...) and either
does not apply (None) or gives its hits. Wipes are in ``wipe_rules``, protection switched off in
``protection_rules``; miners, netcat shells, persistence, file writes, Docker and administrative
commands are here. The rules are asked in the order of ``_RULES``: a deciding rule that applies
ends the judgement, an adding rule that applies notes its hits and lets the later rules speak too.
Programs that run other programs (``sudo``, ``env``, ``sh -c``) are unwrapped before these rules,
in ``command_lines``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from . import protection_rules, rules, wipe_rules
from .commands import Argv, CommandHit, normalise_path, write_target_hits


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
    for target in c.positional[-1:]:
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
    _deciding(wipe_rules.rm),
    _deciding(wipe_rules.file_system_erased),
    _deciding(wipe_rules.volumes_destroyed),
    _deciding(wipe_rules.dd_onto_a_disk),
    _deciding(wipe_rules.shred_of_a_disk),
    _deciding(wipe_rules.files_shredded),
    _deciding(wipe_rules.rsync_delete),
    _deciding(wipe_rules.recovery_destroyed),
    _deciding(wipe_rules.find_deleting_everything),
    _deciding(wipe_rules.permissions_changed),
    _deciding(protection_rules.selinux_off),
    _deciding(protection_rules.firewall_or_apparmor_off),
    _deciding(protection_rules.security_service_stopped),
    _deciding(protection_rules.security_process_killed),
    _adding(protection_rules.every_process_signalled),
    _adding(protection_rules.other_processes_stopped),
    _deciding(protection_rules.audit_off),
    _deciding(protection_rules.iptables_flushed),
    _deciding(protection_rules.nft_flushed),
    _deciding(protection_rules.aslr_off),
    _deciding(protection_rules.logs_erased),
    _deciding(protection_rules.journal_erased),
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
