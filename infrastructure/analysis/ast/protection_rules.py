"""Programs that switch protection off: the rules ``program_rules`` asks.

Each rule gives None when it does not apply, else its hits: SELinux, AppArmor and the firewall
switched off, security services stopped or killed, the audit system, address-space randomisation,
logs and the journal erased; and processes signalled or stopped.
"""

from __future__ import annotations

import re

from . import rules
from .commands import Argv, CommandHit, normalise_path, program_name


def _disables_security(detail: str) -> list[CommandHit]:
    return [CommandHit("disable-security", detail, True)]


def selinux_off(c: Argv) -> list[CommandHit] | None:
    if c.name == "setenforce" and c.lowered[:1] and c.lowered[0] in ("0", "permissive"):
        return _disables_security("switches SELinux off (setenforce 0)")
    return None


def firewall_or_apparmor_off(c: Argv) -> list[CommandHit] | None:
    name = c.name
    if name == "ufw" and "disable" in c.lowered or name in ("aa-teardown", "aa-disable", "aa-complain") or (
        name == "apparmor_parser" and ("-r" in c.lowered and "-R" in c.args)
    ):
        return _disables_security(f"switches the firewall or AppArmor off (`{name}`)")
    return None


def security_service_stopped(c: Argv) -> list[CommandHit] | None:
    words, lowered = c.words, c.lowered
    if not (c.name in ("systemctl", "service", "chkconfig", "update-rc.d", "rc-service", "launchctl") or re.match(r"/etc/init\.d/", words[0])):
        return None
    stopping = {"stop", "disable", "mask", "kill", "off", "unload", "remove"} & set(lowered)
    services = set(lowered) | ({program_name(words[0])} if words[0].startswith("/etc/init.d/") else set())
    if stopping and any(rules.SECURITY_PROCESS_NAME.search(s) or s.removesuffix(".service") in rules.SECURITY_TOOLS for s in services):
        return _disables_security(f"stops security tooling ({' '.join(words[:4])})")
    return None


_KILLERS = ("pkill", "killall", "kill", "taskkill", "skill")


def security_process_killed(c: Argv) -> list[CommandHit] | None:
    if c.name in _KILLERS and any(rules.SECURITY_PROCESS_NAME.search(word) or word in rules.SECURITY_TOOLS for word in c.lowered):
        return _disables_security(f"kills security tooling ({' '.join(c.words[:4])})")
    return None


def every_process_signalled(c: Argv) -> list[CommandHit] | None:
    if c.name in ("kill", "pkill") and any(word in ("-1", "1") for word in c.args[-1:]):
        return [CommandHit("privileged-command", "signals every process or init", False)]
    return None


_ONLY_ASKING = {"-0", "-s0", "-l", "-L", "--list", "-V", "--version", "/?", "-h", "--help"}


def other_processes_stopped(c: Argv) -> list[CommandHit] | None:
    args = c.args
    if c.name in (*_KILLERS, "xkill", "pkill.exe", "taskkill.exe") and args and not (_ONLY_ASKING & set(args) or "$!" in args):
        return [CommandHit("process-control", f"stops other processes ({' '.join(c.words[:4])})", False)]
    return None


def audit_off(c: Argv) -> list[CommandHit] | None:
    lowered = c.lowered
    if c.name == "auditctl" and (("-e" in lowered and "0" in lowered) or "-d" in lowered):
        return _disables_security("switches the audit system off")
    return None


def iptables_flushed(c: Argv) -> list[CommandHit] | None:
    lowered = c.lowered
    if c.name in ("iptables", "ip6tables", "iptables-legacy", "ebtables") and (
        {"-f", "--flush", "-x"} & set(lowered) or ("-p" in lowered and "accept" in lowered)
    ):
        return _disables_security("flushes the firewall rules")
    return None


def nft_flushed(c: Argv) -> list[CommandHit] | None:
    if c.name == "nft" and "flush" in c.lowered:
        return _disables_security("flushes the firewall rules (nft flush)")
    return None


def aslr_off(c: Argv) -> list[CommandHit] | None:
    if c.name == "sysctl" and any("randomize_va_space=0" in word or "modules_disabled=0" in word for word in c.lowered):
        return _disables_security("switches address-space randomisation off")
    return None


def logs_erased(c: Argv) -> list[CommandHit] | None:
    if c.name in ("truncate", "shred") and any(rules.SECURITY_PATHS.search(normalise_path(a)) for a in c.args):
        return _disables_security("erases logs")
    return None


def journal_erased(c: Argv) -> list[CommandHit] | None:
    if c.name == "journalctl" and any(word.startswith("--vacuum") or word == "--rotate" for word in c.lowered):
        return _disables_security("erases the system journal")
    return None

