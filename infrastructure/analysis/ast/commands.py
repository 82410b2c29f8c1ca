"""What shell command text and file paths mean, for the AST analyzer.

Command lines are split into segments (at ; && || | & newlines and $( ) and each segment's
program and arguments are judged: wipes, firewall and audit switched off, reverse shells, miners,
privileged and persistence commands. Paths are normalised (every spelling of a home folder
becomes ``~``) and classified: secrets, top-level folders a wipe targets, system paths.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ..sensitive_paths import SensitivePaths
from . import rules

PLACEHOLDER = "\ufffc"  # stands for an unknown part of a partly known string


# --- paths ---------------------------------------------------------------------------------


def normalise_path(path: str) -> str:
    """Home folders spelled any way become ``~``; ``//``, ``.`` and ``..`` are resolved."""
    text = path.strip().strip("'\"").replace("\\", "/")
    for home in ("$HOME", "${HOME}", "%USERPROFILE%", "%HOMEPATH%", "$env:USERPROFILE"):
        if text.startswith(home):
            text = "~" + text[len(home):]
    text = re.sub(r"^/home/[^/]+(?=/|$)", "~", text)
    text = re.sub(r"^/root(?=/|$)", "~", text)
    text = re.sub(r"^~[A-Za-z0-9_.-]+(?=/|$)", "~", text)
    text = re.sub(r"^[A-Za-z]:/Users/[^/]+(?=/|$)", "~", text)
    if text.startswith(("/", "~")):
        head, rest = ("/", text[1:]) if text.startswith("/") else ("~/", text[1:].lstrip("/"))
        rest = posixpath.normpath("/" + rest)[1:] if rest else ""
        text = (head + rest) if rest else head.rstrip("/") or "/"
        if text == "~/":
            text = "~"
    return text


def secret_label(path: str, paths: SensitivePaths | None) -> str | None:
    """What credentials reading ``path`` reads, by the sensitive-path model (None: none)."""
    return paths.secret(path) if paths is not None else None


def wipe_target(path: str) -> bool:
    """The whole file system, a home folder, or a top-level system folder."""
    normal = normalise_path(path).rstrip("*").rstrip("/") or "/"
    if normal in ("/", "~", "", "/home", "/Users", "/mnt", "/media"):
        return True
    if re.fullmatch(r"[A-Za-z]:(/(Windows|Users|Program Files)?)?", normal):
        return True
    parts = normal.strip("/").split("/")
    return normal.startswith("/") and len(parts) == 1 and parts[0] in rules.SYSTEM_TOP


def system_path(path: str) -> bool:
    normal = normalise_path(path)
    if rules.HARMLESS_DEVICES.match(normal):
        return False
    parts = normal.strip("/").split("/")
    return normal.startswith("/") and bool(parts) and parts[0] in rules.SYSTEM_TOP


def outside_working_dir(path: str) -> bool:
    normal = normalise_path(path)
    if rules.HARMLESS_DEVICES.match(normal):
        return False
    if normal.startswith(("/", "~")) or re.match(r"^[A-Za-z]:/", normal):
        return True
    return posixpath.normpath(normal).startswith("..")


# --- shell command text ------------------------------------------------------------------------

_READING_PROGRAMS = frozenset({"cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "strings", "xxd", "od", "hexdump", "base64",
                               "tac", "nl", "sort", "uniq", "wc", "awk", "sed", "cut", "diff", "md5sum", "sha256sum", "file", "tar", "zip",
                               "gzip", "cp", "rsync", "scp", "type", "get-content"})
_LISTING_PROGRAMS = frozenset({"ls", "dir", "find", "tree", "du", "locate", "get-childitem", "lsattr"})


def command_path_ops(words: list[str]) -> list[tuple[str, str]]:
    """(operation, path) for each path a command line reads or lists: ``cat /etc/passwd`` reads it,
    ``ls /root`` lists it. ``cp``'s last argument is where it writes, not a read."""
    if not words:
        return []
    name = program_name(words[0])
    targets = [word for word in words[1:] if word.startswith(("/", "~", "$HOME", "../")) and not word.startswith("//")]
    if name in ("cp", "rsync", "scp", "tar", "zip") and len(targets) > 1:
        targets = targets[:-1] if name != "tar" else targets
    if name in _READING_PROGRAMS:
        return [("read", target) for target in targets]
    if name in _LISTING_PROGRAMS:
        return [("list", target) for target in targets]
    return []


_SEGMENT_SPLIT = re.compile(r"\|\||&&|[;|&\n`]|\$\(|\)")


def command_segments(text: str) -> list[list[str]]:
    cleaned = text.replace("'", " ").replace('"', " ").replace("\\\n", " ")
    out = []
    for segment in _SEGMENT_SPLIT.split(cleaned):
        words = segment.split()
        while words and ("=" in words[0] and not words[0].startswith("-")):  # VAR=value cmd
            words = words[1:]
        if words:
            out.append(words)
    return out


def program_name(word: str) -> str:
    return word.rsplit("/", 1)[-1].lower()


@dataclass(frozen=True)
class CommandHit:
    rule: str
    detail: str
    malicious: bool  # reported even when the text is not (yet) seen reaching a command


def command_hits(text: str, depth: int = 0, paths: SensitivePaths | None = None) -> list[CommandHit]:
    """What a shell command line does that matters to us."""
    hits: list[CommandHit] = []
    if depth > 3 or not text or not rules.COMMAND_HINT.search(text):
        return hits
    if rules.REVERSE_SHELL_TEXT.search(text):
        hits.append(CommandHit("reverse-shell", "opens a shell over a network connection", True))
    if rules.FORK_BOMB_TEXT.search(text):
        hits.append(CommandHit("fork-bomb", "contains a shell fork bomb", True))
    if rules.CURL_PIPE_SHELL.search(text):
        hits.append(CommandHit("remote-command-exec", "pipes a download straight into a shell or interpreter", True))
    lowered = text.lower()
    words_all = set(re.findall(r"[\w.+-]+", lowered))
    sent = re.sub(r"(?:\s-i|--identity-file|IdentityFile=)\s*\S+", " ", text)  # an ssh/scp login key is used, not sent
    if words_all & rules.NETWORK_TOOLS and any(secret_label(word, paths) for word in re.findall(r"[~/$][^\s'\"|;&<>]*|\.[\w.-]+/[^\s'\"|;&<>]*", sent)):
        hits.append(CommandHit("exfiltration", "sends credential files with a network tool", True))
    if re.search(r"\bhistory\s+-c\b|\bunset\s+HISTFILE\b|HISTFILE=/dev/null|\bSet-MpPreference\b.*-Disable|"
                 r"\bnetsh\s+advfirewall\s+set\s+\w+\s+state\s+off|\bsc(\.exe)?\s+(stop|config)\s+windefend",
                 text, re.IGNORECASE):
        hits.append(CommandHit("disable-security", "disables security tooling or erases the shell history", True))
    for redirect in re.finditer(r">>?\s*([~/$][^\s;&|]*)", text):
        target = normalise_path(redirect.group(1))
        hits.extend(write_target_hits(target, "a shell redirection", text))
    for words in command_segments(text):
        hits.extend(argv_hits(words, depth, paths))
    return hits


def write_target_hits(target: str, how: str, text: str = "") -> list[CommandHit]:
    if rules.SECURITY_PATHS.search(target):
        return [CommandHit("disable-security", f"overwrites {target} ({how}), which disables protection or erases logs", True)]
    if rules.PERSISTENCE_BACKDOOR_PATHS.search(target):
        return [CommandHit("persistence-backdoor", f"writes {target} ({how})", True)]
    if rules.PRIVILEGED_DEVICES.match(target):
        return [CommandHit("destructive-wipe", f"writes straight to the disk device {target} ({how})", True)]
    if rules.PERSISTENCE_PATHS.search(target):
        return [CommandHit("persistence", f"writes {target} ({how}), which runs code at start-up", False)]
    if system_path(target):
        return [CommandHit("system-path-write", f"writes {target} ({how})", False)]
    return []


def argv_hits(words: list[str], depth: int, paths: SensitivePaths | None = None) -> list[CommandHit]:
    hits: list[CommandHit] = []
    if not words:
        return hits
    name = program_name(words[0])
    args = words[1:]
    lowered = [word.lower() for word in args]
    if name in rules.PRIVILEGE_ESCALATION:
        hits.append(CommandHit("privilege-escalation", f"runs `{name}` to gain privileges", False))
        rest = [word for word in args if not word.startswith("-")]
        if name in ("su", "runuser") and "-c" in args:
            rest = args[args.index("-c") + 1:]
        hits.extend(argv_hits(rest, depth + 1, paths) if rest else [])
        return hits
    if name in ("env", "nohup", "exec", "time", "nice", "ionice", "timeout", "stdbuf", "xargs", "command", "builtin") and args:
        rest = args
        while rest and (rest[0].startswith("-") or "=" in rest[0] or re.fullmatch(r"\d+[smhd]?", rest[0])):
            rest = rest[1:]
        return argv_hits(rest, depth + 1, paths)
    if re.fullmatch(r"pip[0-9.]*", name) or ("-m" in args[:2] and any(re.fullmatch(r"pip[0-9.]*", word) for word in args[1:3])):
        if "install" in lowered:
            hits.append(CommandHit("package-install", "installs packages at run time", False))
        return hits
    if name in rules.SHELLS or re.fullmatch(r"python[0-9.]*|perl|ruby|php|node", name):
        if "-c" in args or "-e" in args or "-r" in args or "/c" in lowered or "-command" in lowered:
            flag = next(i for i, word in enumerate(args) if word in ("-c", "-e", "-r") or word.lower() in ("/c", "-command"))
            inner = " ".join(args[flag + 1:])
            hits.extend(command_hits(inner, depth + 1, paths))
            if not re.fullmatch(r"python[0-9.]*", name) and name not in rules.SHELLS:
                return hits
            if re.fullmatch(r"python[0-9.]*", name) and re.search(r"\bsocket\b", inner) and re.search(r"dup2|pty|subprocess|/bin/", inner):
                hits.append(CommandHit("reverse-shell", "runs a Python one-liner that wires a socket to a shell", True))
        return hits
    if name == "rm":
        recursive = any(word.startswith("-") and not word.startswith("--") and "r" in word.lower() for word in args) or "--recursive" in args
        targets = [word for word in args if not word.startswith("-")]
        if recursive and any(wipe_target(target) for target in targets):
            hits.append(CommandHit("destructive-wipe", f"recursively deletes {next(t for t in targets if wipe_target(t))}", True))
        elif "--no-preserve-root" in args:
            hits.append(CommandHit("destructive-wipe", "deletes with --no-preserve-root", True))
        elif any(rules.SECURITY_PATHS.search(normalise_path(target)) for target in targets):
            hits.append(CommandHit("disable-security", "deletes logs or security configuration", True))
        elif any(system_path(target) for target in targets):
            hits.append(CommandHit("system-path-write", "deletes files in a system folder", False))
        return hits
    if name.startswith("mkfs") or name in ("wipefs", "fdisk", "sfdisk", "parted") and any(a.startswith("/dev/") for a in args):
        if name.startswith("mkfs") or name == "wipefs" or any(a in ("-a", "--all", "mklabel", "rm") for a in lowered):
            hits.append(CommandHit("destructive-wipe", f"`{name}` erases a file system", True))
            return hits
    if name in ("lvremove", "vgremove", "pvremove", "blkdiscard") or (name in ("zpool", "zfs") and "destroy" in lowered) or (
            name == "sgdisk" and {"--zap-all", "-z", "--clear", "-o"} & set(lowered)):
        hits.append(CommandHit("destructive-wipe", f"`{' '.join(words[:2])}` destroys volumes, pools or a disk's data", True))
        return hits
    if name == "dd" and any(re.match(r"of=/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper)", a) for a in lowered):
        hits.append(CommandHit("destructive-wipe", "overwrites a disk device with dd", True))
        return hits
    if name == "shred" and any(a.startswith("/dev/") or wipe_target(a) for a in args):
        hits.append(CommandHit("destructive-wipe", "shreds a disk device or a top-level folder", True))
        return hits
    if name in ("shred", "srm", "wipe") and [a for a in args if not a.startswith("-")]:
        hits.append(CommandHit("destructive-sweep", f"`{name}` overwrites files beyond recovery", False))
        return hits
    if name == "rsync" and any(a.startswith("--delete") for a in lowered):
        positional, skip = [], False
        for word in args:
            if skip:
                skip = False
            elif word in ("--exclude", "--include", "-e", "--rsh", "--filter", "-f", "--exclude-from", "--include-from"):
                skip = True  # the option's value, not a source
            elif not word.startswith("-"):
                positional.append(word)
        target, sources = positional[-1:], positional[:-1]
        # mirroring nothing (an empty or fresh scratch folder) onto a folder empties it; mirroring
        # the program's own folder onto a backup drive is a backup
        empty = any(src.startswith(("/tmp/", "/var/tmp/", "/dev/null")) or "empty" in src.lower() for src in sources)
        if target and wipe_target(target[0]):
            hits.append(CommandHit("destructive-wipe", f"rsync --delete empties {target[0]}", True))
        elif target and empty and (target[0].startswith(("/", "~")) or PLACEHOLDER in target[0]):
            hits.append(CommandHit("destructive-sweep", f"rsync --delete mirrors an empty folder onto {target[0]}, removing what it holds", False))
        return hits
    if (name in ("vssadmin", "vssadmin.exe", "wmic") and "delete" in lowered and any("shadow" in a for a in lowered)) or (
        name in ("wbadmin", "wbadmin.exe") and "delete" in lowered) or (
        name in ("bcdedit", "bcdedit.exe") and any(a in ("recoveryenabled", "bootstatuspolicy") for a in lowered)) or (
        name in ("cipher", "cipher.exe") and any(a.startswith("/w") for a in lowered)):
        hits.append(CommandHit("destructive-wipe", f"`{name}` destroys backups or recovery, or wipes free space (ransomware's "
                                                   "first steps)", True))
        return hits
    if name == "find" and args and wipe_target(args[0]) and ("-delete" in lowered or ("-exec" in lowered and "rm" in lowered)):
        hits.append(CommandHit("destructive-wipe", f"deletes everything found under {args[0]}", True))
        return hits
    if name in ("chmod", "chown", "chgrp"):
        targets = [word for word in args if not word.startswith("-")][1:]
        if any(word in ("-r", "-R", "--recursive") for word in args) and any(wipe_target(t) for t in targets):
            hits.append(CommandHit("destructive-wipe", f"recursively changes `{name}` of a top-level folder", True))
        elif name == "chmod" and args and any(re.fullmatch(r"([ugoa]*\+[rwx]*s[rwx]*|[2467][0-7]{3})", word) for word in args):
            hits.append(CommandHit("system-path-permission", "sets the set-uid/set-gid bit", False))
        elif name != "chmod" or any(system_path(t) for t in targets):
            hits.append(CommandHit("system-path-permission", f"`{name}` on {' '.join(targets) or 'files'}", False))
        return hits
    if name == "setenforce" and lowered[:1] and lowered[0] in ("0", "permissive"):
        hits.append(CommandHit("disable-security", "switches SELinux off (setenforce 0)", True))
        return hits
    if name == "ufw" and "disable" in lowered or name in ("aa-teardown", "aa-disable", "aa-complain") or (
        name == "apparmor_parser" and ("-r" in lowered and "-R" in args)
    ):
        hits.append(CommandHit("disable-security", f"switches the firewall or AppArmor off (`{name}`)", True))
        return hits
    if name in ("systemctl", "service", "chkconfig", "update-rc.d", "rc-service", "launchctl") or re.match(r"/etc/init\.d/", words[0]):
        stopping = {"stop", "disable", "mask", "kill", "off", "unload", "remove"} & set(lowered)
        services = set(lowered) | ({program_name(words[0])} if words[0].startswith("/etc/init.d/") else set())
        if stopping and any(rules.SECURITY_PROCESS_NAME.search(s) or s.removesuffix(".service") in rules.SECURITY_TOOLS for s in services):
            hits.append(CommandHit("disable-security", f"stops security tooling ({' '.join(words[:4])})", True))
            return hits
    if name in ("pkill", "killall", "kill", "taskkill", "skill") and any(
        rules.SECURITY_PROCESS_NAME.search(word) or word in rules.SECURITY_TOOLS for word in lowered
    ):
        hits.append(CommandHit("disable-security", f"kills security tooling ({' '.join(words[:4])})", True))
        return hits
    if name in ("kill", "pkill") and any(word in ("-1", "1") for word in args[-1:]):
        hits.append(CommandHit("privileged-command", "signals every process or init", False))
    if name in ("pkill", "killall", "kill", "taskkill", "skill", "xkill", "pkill.exe", "taskkill.exe") and args and not (
        {"-0", "-s0", "-l", "-L", "--list", "-V", "--version", "/?", "-h", "--help"} & set(args) or "$!" in args
    ):
        hits.append(CommandHit("process-control", f"stops other processes ({' '.join(words[:4])})", False))
    if name == "auditctl" and (("-e" in lowered and "0" in lowered) or "-d" in lowered):
        hits.append(CommandHit("disable-security", "switches the audit system off", True))
        return hits
    if name in ("iptables", "ip6tables", "iptables-legacy", "ebtables") and (
        {"-f", "--flush", "-x"} & set(lowered) or ("-p" in lowered and "accept" in lowered)
    ):
        hits.append(CommandHit("disable-security", "flushes the firewall rules", True))
        return hits
    if name == "nft" and "flush" in lowered:
        hits.append(CommandHit("disable-security", "flushes the firewall rules (nft flush)", True))
        return hits
    if name == "sysctl" and any("randomize_va_space=0" in word or "modules_disabled=0" in word for word in lowered):
        hits.append(CommandHit("disable-security", "switches address-space randomisation off", True))
        return hits
    if name in ("truncate", "shred") and any(rules.SECURITY_PATHS.search(normalise_path(a)) for a in args):
        hits.append(CommandHit("disable-security", "erases logs", True))
        return hits
    if name == "journalctl" and any(word.startswith("--vacuum") or word == "--rotate" for word in lowered):
        hits.append(CommandHit("disable-security", "erases the system journal", True))
        return hits
    if rules.MINER_BINARIES.search(name) or (name.startswith("./") and rules.MINER_BINARIES.search(words[0])):
        hits.append(CommandHit("crypto-miner", f"runs the miner `{name}`", True))
        return hits
    if name in ("nc", "ncat", "netcat") and any(re.fullmatch(r"-[a-z]*[ec]", word) for word in lowered):
        hits.append(CommandHit("reverse-shell", "netcat with -e/-c hands a shell to the network", True))
        return hits
    if name == "git" and "config" in lowered and {"core.hookspath", "init.templatedir"} & set(lowered) and len(args) > 2:
        hits.append(CommandHit("persistence", "points git's hooks at a folder of its choosing: they run in every repository", False))
        return hits
    if name == "crontab" or any(rules.PERSISTENCE_PATHS.search(normalise_path(a)) for a in args if name in ("tee", "cp", "mv", "install", "ln")):
        hits.append(CommandHit("persistence", f"`{name}` installs something that runs later", False))
        return hits
    if name in ("tee", "cp", "mv", "install", "ln", "touch", "mkdir", "sed") and args:
        for target in [a for a in args if not a.startswith("-")][-1:]:
            hits.extend(write_target_hits(normalise_path(target), f"`{name}`"))
        if hits:
            return hits
    if name == "docker" and docker_only_looks(args):
        return hits  # a status query: command-exec at most
    if (name == "docker" and args[:1] == ["compose"] or name == "docker-compose") and compose_of_the_project(args):
        return hits  # the project's own services, from its compose file: command-exec at most
    if name in rules.PRIVILEGED_COMMANDS:
        hits.append(CommandHit("privileged-command", f"runs the administrative command `{name}`", False))
    if name == "docker" or "docker.sock" in " ".join(args):
        hits.append(CommandHit("docker-socket", "talks to the Docker daemon, which is root on the host", False))
    return hits


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
