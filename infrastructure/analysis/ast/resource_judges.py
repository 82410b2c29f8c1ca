"""The judges of a call's resources: files and paths, permissions, the network, privileges.
"""

from __future__ import annotations

import ast
import fnmatch
import re

from mai_safety.domain.levels import RiskLevel

from ..sensitive_paths import PathRating, path_forms
from . import rules
from .commands import (
    PLACEHOLDER,
    normalise_path,
    outside_working_dir,
    secret_label,
    system_path,
    wipe_target,
)
from .state import AnalysisState, WalkContext, clip
from .values import (
    ENCODING_FLAGS,
    NO_FLAGS,
    UNKNOWN,
    Alternatives,
    Instance,
    Num,
    Ref,
    Str,
    Unknown,
    Value,
    flags_of,
    listed_folder,
    mode_letters,
    strings_of,
    wildcards_unknown,
)


class ResourceJudges:
    """Pass-two judgements of what a call does to files and paths (the sensitive-path model), permissions,
    the network and privileges."""

    def __init__(self, state: AnalysisState) -> None:
        self.state = state

    def judge_files(self, node: ast.Call, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value], ctx: WalkContext) -> None:
        writes, deletes, reads, mentions, lists = self._file_arguments(node, qualname, func, args, kwargs)
        for value in reads:
            for text in strings_of(value)[:16]:
                if self.judge_path(node, text, "read"):
                    break
        for value in mentions:
            for text in strings_of(value):
                label = secret_label(text, self.state.paths)
                if label:
                    self.state.hit("secret-file-read", node, f"reads {label} ({clip(text)})")
                    self.state.secret_reads.append((node, label))
                    break
                if rules.PRIVILEGED_DEVICES.match(normalise_path(text)):
                    self.state.hit("privileged-call", node, f"opens the device {text}")
        for value in lists:
            for text in strings_of(value)[:16]:
                if self.judge_path(node, text if PLACEHOLDER in text else listed_folder(text), "list"):
                    break
        for value in writes:
            for text in strings_of(value):
                self._judge_write_target(node, text, "writes")
                if value.flags & ENCODING_FLAGS and PLACEHOLDER in text.rsplit("/", 1)[-1] and outside_working_dir(normalise_path(text)):
                    self.state.hit("opacity", node, f"writes {clip(text)} outside the working directory under a name decoded at run time: "
                                   "which file it changes is hidden; a person must read it")
                if re.search(r"(^|/)((docker-)?compose[^/]*\.ya?ml|Dockerfile[^/]*)$", text):
                    self.state.writes_compose = True  # its `docker compose up` runs what it wrote, not the project's
        for value in deletes:
            texts = strings_of(value)
            if not texts and qualname == "shutil.rmtree":
                self.state.hit("recursive-delete", node, "deletes a folder tree whose path is only known at run time", "MEDIUM")
            for text in texts:
                climbed = path_forms(text, unknown_base=False) if ".." in text.split("/") else []
                if climbed and climbed[0] != text and wipe_target(climbed[0]):
                    self.state.hit("destructive-wipe", node, f"deletes {text}, which climbs out to {climbed[0]}")
                elif text.replace(PLACEHOLDER, "").strip("*") and wipe_target(text.replace(PLACEHOLDER, "*")) and PLACEHOLDER not in text.rstrip(PLACEHOLDER + "*/"):
                    self.state.hit("destructive-wipe", node, f"deletes {normalise_path(text)}, a top-level folder or home")
                elif rules.SECURITY_PATHS.search(normalise_path(text)):
                    self.state.hit("disable-security", node, f"deletes {normalise_path(text)}, erasing logs or security settings")
                else:
                    self._judge_write_target(node, text, "deletes", quiet_outside=qualname != "shutil.rmtree")

    def _file_arguments(
        self, node: ast.Call, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value]
    ) -> tuple[list[Value], list[Value], list[Value], list[Value], list[Value]]:
        """The paths a call writes, deletes, reads, mentions and lists; permissions and keys are judged
        on the way."""
        writes: list[Value] = []
        deletes: list[Value] = []
        reads: list[Value] = []  # certainly read: rated by the sensitive-path model
        mentions: list[Value] = []  # handed to some other call: only credentials count
        lists: list[Value] = []
        method = qualname.split("#", 1)[1] if "#" in qualname else ""
        recv = func.recv if isinstance(func, Ref) else None
        if qualname in rules.LISTERS:
            if qualname.startswith("pathlib.Path#"):
                base = recv.path if isinstance(recv, Instance) and recv.path is not None else None
                if base is not None:
                    pattern = args[0].value if args and isinstance(args[0], Str) else ""
                    lists.append(Str(NO_FLAGS, base))
                    if pattern:  # what the pattern looks for: Path.home().rglob(".env*")
                        deep = f"{PLACEHOLDER}/" if method == "rglob" else ""
                        lists.append(Str(NO_FLAGS, f"{base.rstrip('/')}/{deep}{wildcards_unknown(pattern)}"))
            else:
                target = args[0] if args else kwargs.get("top") or kwargs.get("path") or kwargs.get("pathname") or Str(NO_FLAGS, ".")
                lists.append(target)
                if qualname in ("glob.glob", "glob.iglob"):
                    lists.extend(Str(NO_FLAGS, wildcards_unknown(text)) for text in strings_of(target)[:16] if "*" in text or "?" in text)
                    reads.extend(Str(NO_FLAGS, named) for named in self._named_files_matching(strings_of(target)[:16]))
        if qualname in rules.FILE_OPENERS and args:
            mode = args[1] if len(args) > 1 else kwargs.get("mode") or kwargs.get("flags")
            mode_text = mode_letters(mode)
            if qualname == "os.open":
                names = {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)} if len(node.args) > 1 else set()
                # the flags by name, or by number (O_WRONLY 1, O_RDWR 2, O_CREAT 64, O_TRUNC 512, O_APPEND 1024 on Linux)
                numeric = isinstance(mode, Num) and isinstance(mode.value, int) and bool(mode.value & (1 | 2 | 64 | 512 | 1024))
                mode_text = "w" if names & {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"} or numeric else "r"
            (writes if set(mode_text) & set("wax+") else reads).append(args[0])
        elif qualname.startswith("pathlib.Path#") and isinstance(recv, Instance):
            path_value = Str(NO_FLAGS, recv.path) if recv.path is not None else UNKNOWN
            if method in rules.PATH_WRITE_METHODS:
                writes.append(path_value)
            elif method in rules.PATH_DELETE_METHODS:
                deletes.append(path_value)
            elif method in rules.PATH_READ_METHODS and method not in ("iterdir", "glob", "rglob"):
                if method == "open" and any(set(mode_letters(m)) & set("wax+") for m in args[:1] + [kwargs.get("mode", UNKNOWN)]):
                    writes.append(path_value)
                else:
                    reads.append(path_value)
            elif method in ("chmod", "lchmod"):
                self._judge_permission(node, "chmod", path_value, args[0] if args else UNKNOWN)
        elif qualname in rules.FILE_READERS and args:
            reads.append(args[0])
        elif qualname in rules.ACCOUNT_DATABASES:
            reads.append(Str(NO_FLAGS, rules.ACCOUNT_DATABASES[qualname]))
        elif qualname in rules.WRITE_DEST_SECOND and len(args) > 1:
            writes.append(args[1])
            if qualname in ("shutil.move", "os.rename", "os.replace"):
                deletes.append(args[0])  # moved away: gone from where it was
            reads.append(args[0])
        elif qualname in rules.WRITE_DEST_FIRST and args:
            writes.append(args[0])
        elif qualname in rules.DELETES and args:
            deletes.append(args[0])
        elif qualname in rules.PERMISSIONS and args:
            self._judge_permission(node, qualname.split(".")[-1], args[0], args[1] if len(args) > 1 else UNKNOWN)
        elif qualname.endswith(".from_private_key_file") or qualname.endswith("#load_system_host_keys"):
            self._judge_key_use(node, args[:1])
        elif qualname not in rules.PATH_ONLY and not qualname.startswith(("pathlib.Path", "os.path.")) and qualname not in rules.COMMANDS and qualname not in rules.LISTERS:
            mentions.extend(v for v in args if isinstance(v, (Str, Instance, Alternatives)))
            mentions.extend(v for k, v in kwargs.items() if isinstance(v, (Str, Instance, Alternatives)) and k not in rules.AUTH_KEY_ARGUMENTS)
            self._judge_key_use(node, [v for k, v in kwargs.items() if k in rules.AUTH_KEY_ARGUMENTS])
        return writes, deletes, reads, mentions, lists

    def judge_path(self, node: ast.AST, text: str, operation: str) -> bool:
        """Rate one read or listing by the sensitive-path model; True if it said something."""
        text = self.state.in_cwd(text)
        if operation == "read":
            label = secret_label(text, self.state.paths)
            if label:
                self.state.hit("secret-file-read", node, f"reads {label} ({clip(text)})")
                self.state.secret_reads.append((node, label))
                return True
            if rules.PRIVILEGED_DEVICES.match(normalise_path(text)):
                self.state.hit("privileged-call", node, f"opens the device {text}")
                return True
        rating = self.state.paths.rate(text, operation) if self.state.paths is not None else None
        if rating is None or rating.level < RiskLevel.MEDIUM:
            return False
        verb = {"read": "reads", "list": "lists"}[operation]
        self.state.hit(f"sensitive-{operation}", node, f"{verb} {clip(rating.form)} ({rating.name})", level=rating.level)
        if operation == "read" and not self._area(rating):  # a file the model names, not a whole area of the system
            self.state.sensitive_reads.append((node, f"{clip(rating.form)} ({rating.name})"))
        return True

    def _named_files_matching(self, patterns: list[str]) -> list[str]:
        """The files the sensitive-path model names (no wildcard of their own) that a glob pattern
        matches: a pattern spelled so that no name appears (``/e[t]c/[ps]a*``) still finds them."""
        wild = [p for p in patterns if any(c in p for c in "*?[") and PLACEHOLDER not in p]
        entries = getattr(self.state.paths, "entries", ()) if wild else ()
        named = [g for entry in entries for g in entry.globs if g.startswith("/") and not any(c in g for c in "*?[")]
        return [path for path in named if any(fnmatch.fnmatchcase(path, pattern) for pattern in wild)][:8]

    def _area(self, rating: PathRating) -> bool:
        """The entry that rated a path covers a whole folder (``/etc/**``), not files it names."""
        entries = getattr(self.state.paths, "entries", ())
        return any(entry.name == rating.name and entry.pattern.fullmatch(rating.form.rstrip("/") + "/x") for entry in entries)

    def _judge_key_use(self, node: ast.AST, values: list[Value]) -> None:
        """A key handed to a client to log in with is used, not sent: HIGH, and not a read that
        would make a later network call look like exfiltration."""
        for value in values:
            for text in strings_of(value):
                label = secret_label(text, self.state.paths)
                if label:
                    self.state.hit("credential-use", node, f"logs in with {label} ({clip(text)})")
                    return

    def _judge_write_target(self, node: ast.AST, text: str, verb: str, quiet_outside: bool = False) -> None:
        operation = "delete" if verb == "deletes" else "write"
        text = self.state.in_cwd(text)
        rating = self.state.paths.rate(text, operation) if self.state.paths is not None else None
        if rating is not None and rating.level >= RiskLevel.MEDIUM:
            self.state.hit(f"sensitive-{operation}", node, f"{verb} {clip(rating.form)} ({rating.name})", level=rating.level)
        target = normalise_path(text)
        if PLACEHOLDER in target.split("/")[0] or target == PLACEHOLDER:
            return
        if rules.SECURITY_PATHS.search(target):
            self.state.hit("disable-security", node, f"{verb} {target}, which disables protection or erases logs")
        elif rules.PERSISTENCE_BACKDOOR_PATHS.search(target):
            self.state.hit("persistence-backdoor", node, f"{verb} {target}, granting lasting access")
        elif rules.PRIVILEGED_DEVICES.match(target):
            self.state.hit("destructive-wipe", node, f"{verb} the disk device {target} directly")
        elif rules.PERSISTENCE_PATHS.search(target):
            self.state.hit("persistence", node, f"{verb} {target}, which runs code at start-up or on a schedule")
        elif system_path(target):
            self.state.hit("system-path-write", node, f"{verb} {target}, a system path")
        elif outside_working_dir(target) and not quiet_outside:
            self.state.hit("outside-write", node, f"{verb} {target}, outside the working directory", "MEDIUM")

    def _judge_permission(self, node: ast.AST, what: str, path: Value, mode: Value) -> None:
        texts = strings_of(path)
        if what in ("chmod", "lchmod", "fchmod") and isinstance(mode, Num) and isinstance(mode.value, int) and mode.value & 0o6000:
            self.state.hit("system-path-permission", node, f"sets the set-uid/set-gid bit ({oct(mode.value)})")
        elif what in ("chmod", "lchmod", "fchmod") and isinstance(mode, Unknown) is False and getattr(mode, "qual", "").endswith(("S_ISUID", "S_ISGID")):
            self.state.hit("system-path-permission", node, "sets the set-uid/set-gid bit")
        elif what in ("chown", "lchown", "fchown") or any(system_path(t) for t in texts):
            where = texts[0] if texts else "a file"
            self.state.hit("system-path-permission", node, f"{what} on {where}")

    def judge_network(self, node: ast.Call, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value]) -> None:
        top = qualname.split("#")[0]
        is_net = top.startswith(rules.NETWORK_PREFIXES) or (func.flags & {"sockfd"} and "#" in qualname) or top in rules.DNS_LOOKUPS
        if not is_net or top.startswith(rules.NETWORK_HELPERS):
            return  # HTTPBasicAuth(user, password) holds a login for a request; it sends nothing
        method = qualname.split("#", 1)[1].split(".")[-1] if "#" in qualname else qualname.rsplit(".", 1)[-1]
        if "#" in qualname and method in ("fileno", "setsockopt", "getsockopt", "settimeout", "setblocking", "close", "shutdown",
                                   "getsockname", "getpeername", "gettimeout", "raise_for_status", "json", "iter_content"):
            return  # housekeeping on a connection already reported where it was made
        self.state.hit("network", node, f"uses the network ({qualname.replace('#', '().')})", "MEDIUM")
        self.state.net_uses.append(node)
        if method in ("connect", "connect_ex") or qualname in ("socket.create_connection", "asyncio.open_connection"):
            self.state.socket_connects.append(node)
        if "#" not in qualname and qualname not in rules.DNS_LOOKUPS and qualname[:1].isalpha() and qualname.rsplit(".", 1)[-1][:1].isupper():
            self.state.net_sends.append(node)  # a client object (SMTP, FTP, HTTPConnection): it exists to send
        sending = method in rules.NET_SEND_METHODS or top in rules.DNS_LOOKUPS or qualname.startswith(rules.HTTP_FETCH_PREFIXES)
        if not sending:
            return
        self.state.net_sends.append(node)
        payload = [*args[1:], *[v for k, v in kwargs.items() if k not in ("headers", "auth", "timeout", "stream", "verify", "cert")]]
        http = top.startswith(("requests", "httpx", "aiohttp", "urllib"))  # requests.put: its headers and auth are not sent data
        if method in ("send", "sendall", "sendto", "sendfile", "write", "send_message", "put", "upload_file", "upload_fileobj") and not (
                http and method == "put") or top in rules.DNS_LOOKUPS:
            payload = [*args, *kwargs.values()]
        data_flags = flags_of(payload) | (args[0].flags if args and ("secret" in args[0].flags or "env-secret" in args[0].flags) else NO_FLAGS)
        if "secret" in data_flags or (top in rules.DNS_LOOKUPS and "env-secret" in data_flags):
            self.state.hit("exfiltration", node, f"sends secrets (credential files or the whole environment) over the network with {qualname.replace('#', '().')}")
        elif "sysfile" in data_flags and data_flags & {"param", "sliced"}:
            # within one function this flow is Semgrep's (file_flows.yaml); across the program's
            # own functions and through slices its open-source taint analysis does not go: ours
            how = "handed over from another function" if "param" in data_flags else "in slices"
            self.state.hit("send-system-file", node, f"sends the contents of a file outside the working directory, {how}, "
                           f"with {qualname.replace('#', '().')}")
        elif "env-secret" in data_flags:
            self.state.hit("env-secret-sent", node, "sends a secret environment variable in the body, URL or parameters of a request")

    def judge_privileged(self, node: ast.Call, qualname: str, func: Value, args: list[Value], kwargs: dict[str, Value]) -> None:
        a0 = args[0] if args else None
        if qualname in rules.SET_IDS:
            who = " to root" if isinstance(a0, Num) and a0.value == 0 else ""
            self.state.hit("set-uid", node, f"changes the process identity{who} ({qualname})")
        elif qualname in rules.PRIVILEGED_CALLS:
            self.state.hit("privileged-call", node, f"`{qualname}` needs root")
        elif qualname == "os.nice" and isinstance(a0, Num) and isinstance(a0.value, int) and a0.value < 0:
            self.state.hit("privileged-call", node, "raises its own scheduling priority (needs root)")
        elif qualname in ("socket.socket",) and any(isinstance(v, Ref) and v.qual.endswith(("SOCK_RAW", "AF_PACKET")) for v in args):
            self.state.hit("privileged-call", node, "opens a raw socket, which needs CAP_NET_RAW")
