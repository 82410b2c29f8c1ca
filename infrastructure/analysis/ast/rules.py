"""The vocabulary of the AST analyzer: its rule ids, what each means, and the indicator tables.

Kept apart from the analyzer's machinery so that a reviewer can read what is looked for without
reading how. Levels are NOT here: policies/analysis.yaml maps every rule id to a level (and may
limit it to some provenances); the analyzer refuses to start if a rule id lacks a level there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class RuleInfo:
    severity: str  # how bad the pattern is in itself: LOW, MEDIUM, HIGH
    cwe: str
    advice: str  # what the author should do instead; ends every message of the rule


RULES: dict[str, RuleInfo] = {
    # --- malicious patterns (BLOCKED by default) -----------------------------------------------
    "reverse-shell": RuleInfo("HIGH", "CWE-506", "never wire a socket to a shell; to run a command, call subprocess.run with a fixed argument list"),
    "remote-command-exec": RuleInfo("HIGH", "CWE-494", "never execute commands or code received over the network; ship the logic in the program itself"),
    "exfiltration": RuleInfo("HIGH", "CWE-200", "do not read credentials or the environment and send them anywhere; ask the user for the one value the task needs"),
    "destructive-wipe": RuleInfo("HIGH", "CWE-1188", "delete only files the program created inside its working directory"),
    "fork-bomb": RuleInfo("HIGH", "CWE-400", "start a fixed, small number of processes (e.g. concurrent.futures with max_workers) and wait for them"),
    "crypto-miner": RuleInfo("HIGH", "CWE-506", "cryptocurrency mining is not allowed in the sandbox; remove the miner"),
    "disable-security": RuleInfo("HIGH", "CWE-693", "do not stop, flush or tamper with security tooling, firewalls or logs"),
    "obfuscated-exec": RuleInfo("HIGH", "CWE-506", "write the code or command as plain source; encoded or assembled payloads cannot be reviewed"),
    "obfuscated-call": RuleInfo("HIGH", "CWE-506", "call functions by their plain names (import os; os.listdir(...)) instead of assembling names at run time"),
    "shellcode-loader": RuleInfo("HIGH", "CWE-506", "do not map executable memory or jump into raw machine code"),
    "persistence-backdoor": RuleInfo("HIGH", "CWE-506", "do not add keys, preloaded libraries or sudo rules; the sandbox is not yours to keep"),
    "clipboard-hijack": RuleInfo("HIGH", "CWE-506", "do not watch or rewrite the clipboard; a wallet address swapper steals payments"),
    "known-threat-hash": RuleInfo("HIGH", "CWE-506", "this code matches a known-malicious snippet; do not run it"),
    "known-threat-package": RuleInfo("HIGH", "CWE-1357", "this package name is a reported malicious or typosquatting package; use the genuine package"),
    # --- privileged access (HIGH by default) ---------------------------------------------------
    "privilege-escalation": RuleInfo("HIGH", "CWE-250", "do not use sudo, su, pkexec or doas; the sandbox grants no extra privileges"),
    "privileged-command": RuleInfo("MEDIUM", "CWE-250", "this command administers the system (needs root); do the task without it or ask the user to"),
    "set-uid": RuleInfo("HIGH", "CWE-250", "do not change user or group ids; run with the privileges you were given"),
    "system-path-write": RuleInfo("MEDIUM", "CWE-250", "write inside the working directory instead of system folders such as /etc, /usr or /boot"),
    "system-path-permission": RuleInfo("MEDIUM", "CWE-732", "do not change owners or set-uid bits, nor permissions of system paths"),
    "native-code": RuleInfo("MEDIUM", "CWE-676", "loading native code bypasses Python's safety; use a Python library instead of ctypes/cffi"),
    "docker-socket": RuleInfo("HIGH", "CWE-250", "the Docker socket gives root on the host; do not touch it"),
    "secret-file-read": RuleInfo("MEDIUM", "CWE-522", "do not read keys or credential files; ask the user for the one value the task needs"),
    "credential-use": RuleInfo("MEDIUM", "CWE-522", "make sure the user wants this key used to log in to that host"),
    "persistence": RuleInfo("MEDIUM", "CWE-506", "do not install cron jobs, services or shell start-up hooks"),
    "privileged-call": RuleInfo("MEDIUM", "CWE-250", "this call needs elevated privileges (raw sockets, devices, chroot, other processes)"),
    "env-secret-sent": RuleInfo("MEDIUM", "CWE-200", "send a secret only in the header or field the service documents for it, and confirm that with the user"),
    "unbounded-fork": RuleInfo("MEDIUM", "CWE-400", "bound the number of forked processes with a small constant"),
    "destructive-sweep": RuleInfo("HIGH", "CWE-1188", "change only files the program created or the user named; never rewrite, encrypt or shred folders of files"),
    "send-system-file": RuleInfo("HIGH", "CWE-200", "send only files the user named or the task made; do not ship system, account or home files off the machine"),
    "process-control": RuleInfo("HIGH", "CWE-284", "stop only processes the program started itself (its Popen/Process objects); leave other processes alone"),
    # --- sensitive paths: the level comes from policies/sensitive_paths.yaml, per path and operation
    "sensitive-read": RuleInfo("MEDIUM", "CWE-200", "read only files the task needs, inside the working directory or named by the user"),
    "sensitive-list": RuleInfo("MEDIUM", "CWE-200", "list only folders the task needs, inside the working directory or named by the user"),
    "sensitive-write": RuleInfo("HIGH", "CWE-732", "write inside the working directory; do not change system, account or start-up files"),
    "sensitive-delete": RuleInfo("HIGH", "CWE-732", "delete only files the program created inside its working directory"),
    # --- risky but common (MEDIUM by default) --------------------------------------------------
    "command-exec": RuleInfo("MEDIUM", "CWE-78", "prefer a Python library; if a command is needed, pass a fixed argument list without shell=True"),
    "code-exec": RuleInfo("MEDIUM", "CWE-95", "avoid exec/eval of computed text; use a dispatch table or ast.literal_eval for data"),
    "dynamic-import": RuleInfo("MEDIUM", "CWE-470", "import modules by their plain names"),
    "process-signal": RuleInfo("LOW", "CWE-284", "signal only processes the program started itself, or make sure the user expects this one to be signalled"),
    "indirect-call": RuleInfo("LOW", "CWE-470", "call the function directly instead of through getattr/__import__/globals()"),
    "network": RuleInfo("LOW", "", "make sure the destination is one the user expects"),
    "outside-write": RuleInfo("LOW", "CWE-73", "write inside the working directory unless the user asked for another place"),
    "deserialization": RuleInfo("MEDIUM", "CWE-502", "load data with json or another format that cannot run code"),
    "weak-crypto": RuleInfo("LOW", "CWE-327", "use hashlib.sha256 (or usedforsecurity=False for checksums) and AES-GCM"),
    "process-fork": RuleInfo("LOW", "CWE-400", "prefer subprocess or concurrent.futures over os.fork"),
    "recursive-delete": RuleInfo("LOW", "CWE-73", "make sure the folder deleted is one the program created"),
    "package-install": RuleInfo("MEDIUM", "CWE-494", "declare dependencies instead of installing packages at run time"),
    "dangerous-command-text": RuleInfo("MEDIUM", "CWE-78", "remove the destructive command text"),
    "parse-failed": RuleInfo("MEDIUM", "", "fix the syntax error so that the whole program can be checked"),
    "too-complex": RuleInfo("MEDIUM", "", "simplify the deepest expressions or blocks so that the program can be checked"),
    # --- what the analysis cannot see (HIGH by default: a person reads it; opacity.py states the rule)
    "opacity": RuleInfo("HIGH", "CWE-470", "name the function, module or code plainly (import os; os.listdir(...)) so that it can be "
                        "reviewed; what the analysis cannot resolve is held for a person"),
}

# Rules whose level is not in analysis.yaml but in the sensitive-path model, per path and operation.
MODEL_LEVELLED = frozenset({"sensitive-read", "sensitive-list", "sensitive-write", "sensitive-delete"})

# --- names of functions, by what calling them does ---------------------------------------------

CODE_EXEC = frozenset({"builtins.exec", "builtins.eval", "builtins.compile", "builtins.execfile", "runpy.run_path", "runpy.run_module"})

SHELL_COMMANDS = frozenset({"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "asyncio.create_subprocess_shell", "platform.popen"})
ARGV_COMMANDS = frozenset({
    "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
    "asyncio.create_subprocess_exec", "pexpect.spawn", "pexpect.run", "sh.Command",
})
EXEC_FAMILY = frozenset({f"os.{name}" for name in ("execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe")})
SPAWN_FAMILY = frozenset({f"os.{name}" for name in ("spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe")})
POSIX_SPAWN = frozenset({"os.posix_spawn", "os.posix_spawnp"})
PTY_SPAWN = frozenset({"pty.spawn"})
COMMANDS = SHELL_COMMANDS | ARGV_COMMANDS | EXEC_FAMILY | SPAWN_FAMILY | POSIX_SPAWN | PTY_SPAWN

FORKS = frozenset({"os.fork", "os.forkpty", "pty.fork"})
NONBLOCKING_SPAWN = frozenset({"subprocess.Popen", "multiprocessing.Process#start", "asyncio.create_subprocess_shell",
                               "asyncio.create_subprocess_exec"}) | POSIX_SPAWN
WAITS = frozenset({"os.wait", "os.waitpid", "os.wait3", "os.wait4", "subprocess.run", "subprocess.call", "subprocess.check_call",
                   "subprocess.check_output", "os.system"})
WAIT_METHODS = frozenset({"wait", "join", "communicate"})

SOCKET_MAKERS = frozenset({"socket.socket", "socket.create_connection", "socket.fromfd", "socket.socketpair", "ssl.wrap_socket",
                           "socket.create_server", "telnetlib.Telnet", "asyncio.open_connection"})
SOCKET_RECV_METHODS = frozenset({"recv", "recvfrom", "recv_into", "recvfrom_into", "recvmsg", "read", "readline", "makefile"})
SOCKET_SEND_METHODS = frozenset({"send", "sendall", "sendto", "sendmsg", "sendfile", "write"})

HTTP_FETCH_PREFIXES = ("requests.", "httpx.", "urllib.request.urlopen", "urllib3.", "aiohttp.", "http.client.", "pycurl.", "urllib.request.Request",
                       "urllib.request.urlretrieve")
NETWORK_PREFIXES = ("socket.", "ssl.", "requests.", "httpx.", "urllib.request.", "urllib3.", "aiohttp.", "http.client.", "smtplib.",
                    "ftplib.", "telnetlib.", "paramiko.", "websocket.", "websockets.", "pycurl.", "asyncio.open_connection",
                    "xmlrpc.client.", "poplib.", "imaplib.", "nntplib.", "dns.",
                    # objects that talk over the network under another library's name: logging's senders, connections of processes
                    "logging.handlers.HTTPHandler", "logging.handlers.SysLogHandler", "logging.handlers.SocketHandler",
                    "logging.handlers.DatagramHandler", "logging.handlers.SMTPHandler", "multiprocessing.connection.Client",
                    "multiprocessing.connection.Listener", "asyncio.start_server", "socketserver.")
# Objects of network libraries that hold settings or logins for a request and send nothing themselves.
NETWORK_HELPERS = ("requests.auth.", "requests.adapters.", "requests.exceptions.", "requests.structures.", "httpx.BasicAuth",
                   "httpx.DigestAuth", "httpx.Timeout", "httpx.Limits", "aiohttp.BasicAuth", "aiohttp.ClientTimeout", "urllib3.util.")
NET_SEND_METHODS = frozenset({"post", "put", "patch", "request", "urlopen", "sendmail", "send_message", "storbinary", "storlines", "put_object",
                              "upload_file", "putrequest", "get", "send", "sendall", "sendto", "sendfile", "write", "connect"})
DNS_LOOKUPS = frozenset({"socket.gethostbyname", "socket.gethostbyname_ex", "socket.getaddrinfo", "dns.resolver.resolve", "dns.resolver.query"})

DECODERS = frozenset({
    "base64.b64decode", "base64.standard_b64decode", "base64.urlsafe_b64decode", "base64.b32decode", "base64.b16decode",
    "base64.b85decode", "base64.a85decode", "base64.decodebytes", "base64.decodestring", "binascii.unhexlify", "binascii.a2b_hex",
    "binascii.a2b_base64", "zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress", "codecs.decode",
    "bytes.fromhex", "bytearray.fromhex", "marshal.loads", "pickle.loads",
})

DESERIALIZERS = frozenset({"pickle.load", "pickle.loads", "pickle.Unpickler", "marshal.load", "marshal.loads", "shelve.open", "dill.load",
                           "dill.loads", "jsonpickle.decode", "yaml.unsafe_load", "yaml.full_load", "cloudpickle.load", "cloudpickle.loads",
                           "joblib.load", "pandas.read_pickle", "torch.load"})
WEAK_HASHES = frozenset({"hashlib.md5", "hashlib.sha1", "Crypto.Hash.MD5.new", "Crypto.Hash.SHA.new", "Crypto.Hash.MD4.new"})
WEAK_CIPHERS = ("Crypto.Cipher.DES", "Crypto.Cipher.ARC4", "Crypto.Cipher.Blowfish", "Crypto.Cipher.ARC2", "Cryptodome.Cipher.DES",
                "Cryptodome.Cipher.ARC4", "cryptography.hazmat.primitives.ciphers.algorithms.TripleDES",
                "cryptography.hazmat.primitives.ciphers.algorithms.ARC4", "cryptography.hazmat.primitives.ciphers.modes.ECB")

SET_IDS = frozenset({f"os.{name}" for name in ("setuid", "setgid", "seteuid", "setegid", "setreuid", "setregid", "setresuid",
                                                "setresgid", "setgroups", "initgroups")})
PRIVILEGED_CALLS = frozenset({"os.chroot", "os.mknod", "os.setns", "os.unshare", "os.pivot_root", "os.sched_setscheduler", "os.setpriority"})
KILLS = frozenset({"os.kill", "os.killpg", "signal.pthread_kill"})
# Methods of cipher objects (Fernet, AES, ...) that encrypt: a folder walk that encrypts and
# writes or deletes what it finds is ransomware.
ENCRYPT_METHODS = frozenset({"encrypt", "encrypt_and_digest"})
DESTRUCTIVE_SQL = re.compile(r"\s*(DROP\s+(TABLE|DATABASE|SCHEMA)|DELETE\s+FROM|TRUNCATE\b)", re.IGNORECASE)
KILL_METHODS = frozenset({"kill", "terminate", "send_signal", "suspend"})
# What starts a child of this program: the object it returns is the program's own (its .pid too).
CHILD_MAKERS = frozenset({"subprocess.Popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "multiprocessing.Process",
                          "pexpect.spawn"})
OWN_PIDS = frozenset({"os.getpid", "os.getppid", "os.getpgrp", "os.getpgid", "os.getsid", "threading.get_native_id", "os.fork", "os.forkpty",
                      "pty.fork"})
# Signals that only ask (reload, report, continue) rather than stop or kill; 0 only checks a pid exists.
GENTLE_SIGNALS = frozenset({"SIGHUP", "SIGUSR1", "SIGUSR2", "SIGCONT", "SIGWINCH", "SIGCHLD", "SIGALRM", "SIGIO", "SIGPWR", "SIGURG"})
GENTLE_SIGNAL_NUMBERS = frozenset({1, 10, 12, 18, 28, 17, 14})
PROCESS_ENUMERATORS = frozenset({"psutil.process_iter", "psutil.pids", "psutil.Process", "psutil.win_service_iter"})

FILE_OPENERS = frozenset({"builtins.open", "io.open", "codecs.open", "os.open", "io.FileIO", "aiofiles.open"})
WRITE_DEST_SECOND = frozenset({"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.move", "os.rename", "os.replace",
                               "os.symlink", "os.link", "shutil.copymode", "shutil.copystat"})
WRITE_DEST_FIRST = frozenset({"os.mkdir", "os.makedirs", "os.truncate", "os.mkfifo", "os.utime"})
DELETES = frozenset({"os.remove", "os.unlink", "os.rmdir", "os.removedirs", "shutil.rmtree"})
PATH_WRITE_METHODS = frozenset({"write_text", "write_bytes", "touch", "mkdir", "rename", "replace", "symlink_to", "hardlink_to"})
PATH_DELETE_METHODS = frozenset({"unlink", "rmdir"})
PATH_READ_METHODS = frozenset({"read_text", "read_bytes", "open", "iterdir", "glob", "rglob"})
PERMISSIONS = frozenset({"os.chmod", "os.lchmod", "os.fchmod", "os.chown", "os.lchown", "os.fchown", "shutil.chown"})
PATH_ONLY = frozenset({  # calls that look at a path without reading what it holds
    "os.path.exists", "os.path.isfile", "os.path.isdir", "os.path.islink", "os.path.expanduser", "os.path.expandvars", "os.path.join",
    "os.path.abspath", "os.path.realpath", "os.path.normpath", "os.path.basename", "os.path.dirname", "os.path.split", "os.path.splitext",
    "os.path.getsize", "os.path.getmtime", "os.fspath", "pathlib.Path", "pathlib.PurePath", "builtins.print", "builtins.str", "os.stat",
    "os.access", "logging.info", "logging.warning", "logging.error", "logging.debug",
})
# Calls that certainly read the file at their first argument (besides the openers above).
# Calls that read an account database: the file they read, for the sensitive-path model.
ACCOUNT_DATABASES = {"spwd.getspall": "/etc/shadow", "spwd.getspnam": "/etc/shadow", "pwd.getpwall": "/etc/passwd",
                     "grp.getgrall": "/etc/group"}
FILE_READERS = frozenset({
    "fileinput.input", "linecache.getline", "linecache.getlines", "tarfile.open", "zipfile.ZipFile", "sqlite3.connect", "shelve.open",
    "pandas.read_csv", "pandas.read_json", "pandas.read_table", "pandas.read_excel", "numpy.loadtxt", "numpy.genfromtxt", "numpy.load",
    "configparser.ConfigParser#read", "configparser.RawConfigParser#read", "plistlib.load", "dbm.open", "mimetypes.read_mime_types",
    "dotenv.dotenv_values", "dotenv.load_dotenv", "dotenv.main.dotenv_values", "dotenv.main.load_dotenv", "pykeepass.PyKeePass",
    "json.load", "yaml.safe_load", "mailbox.mbox", "mailbox.Maildir", "mailbox.MH", "mailbox.Babyl", "mailbox.MMDF",
})
# Calls that list the folder at their first argument (the working directory without one).
LISTERS = frozenset({"os.listdir", "os.scandir", "os.walk", "os.fwalk", "glob.glob", "glob.iglob", "pathlib.Path#iterdir", "pathlib.Path#glob",
                     "pathlib.Path#rglob", "pathlib.Path#walk",
                     # watching a folder reveals what is created, read and changed in it
                     "inotify.adapters.InotifyTree", "inotify.adapters.Inotify#add_watch", "pyinotify.WatchManager#add_watch"})
SWEEPS = frozenset({"os.walk", "os.fwalk", "os.scandir", "os.listdir", "glob.glob", "glob.iglob", "pathlib.Path#rglob", "pathlib.Path#glob",
                    "pathlib.Path#iterdir"})
# Where the interpreter keeps packages (and so its start-up hooks: *.pth, sitecustomize.py), as
# the calls that tell a program; one representative spelling each.
_SITE = "/usr/lib/python3/site-packages"
_USER_SITE = "~/.local/lib/python3/site-packages"
SITE_PATHS: dict[str, str | tuple[str, ...] | dict[str, str]] = {
    "site.getsitepackages": ("/usr/local/lib/python3/dist-packages", _SITE),
    "site.getusersitepackages": _USER_SITE,
    "site.getuserbase": "~/.local",
    "sysconfig.get_paths": {"purelib": _SITE, "platlib": _SITE, "stdlib": "/usr/lib/python3", "scripts": "/usr/bin"},
    "sysconfig.get_path": _SITE,
    "distutils.sysconfig.get_python_lib": _SITE,
}
SITE_CONSTANTS = {"site.USER_SITE": _USER_SITE, "site.USER_BASE": "~/.local"}
# Calls that replace a function with a mock (tests): the function named is not really called.
MOCK_PATCHERS = frozenset({"unittest.mock.patch", "mock.patch", "unittest.mock.patch.object", "mock.patch.object",
                           "pytest.MonkeyPatch#setattr", "?#setattr"})
# Constructors of a request object: what it carries is its URL, body and parameters.
REQUEST_BUILDERS = frozenset({"urllib.request.Request", "requests.Request", "httpx.Request"})
SANDBOX_ESCAPES = frozenset({"docker.from_env", "docker.DockerClient", "docker.APIClient", "docker.client.from_env"})

# Names that module aliases and old spellings resolve to (checked as prefixes).
CANONICAL_PREFIXES = (
    ("posix.", "os."), ("nt.", "os."), ("__builtin__.", "builtins."), ("__builtins__.", "builtins."), ("_io.", "io."),
    ("commands.", "subprocess."), ("_socket.", "socket."), ("pathlib.PosixPath", "pathlib.Path"), ("pathlib.WindowsPath", "pathlib.Path"),
    ("pathlib.PurePosixPath", "pathlib.Path"), ("urllib2.", "urllib.request."), ("subprocess.os.", "os."), ("os.path.os.", "os."),
    ("cPickle.", "pickle."), ("_pickle.", "pickle."), ("importlib.__import__", "builtins.__import__"), ("Cryptodome.", "Crypto."),
    ("socket.SocketType", "socket.socket"), ("builtins.bytes.", "bytes."), ("builtins.bytearray.", "bytearray."), ("builtins.str.", "str."), ("multiprocessing.context.Process", "multiprocessing.Process"),
)
DANGEROUS_MODULES = frozenset({"os", "subprocess", "socket", "pty", "ctypes", "shutil", "marshal", "pickle", "builtins", "importlib", "posix",
                               "nt", "sys", "base64", "zlib", "codecs", "urllib", "requests", "http", "commands", "platform", "cffi", "mmap"})

# --- things to look for in text ------------------------------------------------------------------

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "csh", "tcsh", "fish", "ash", "busybox", "cmd", "cmd.exe", "powershell",
                    "powershell.exe", "pwsh"})
NETWORK_TOOLS = frozenset({"curl", "wget", "nc", "ncat", "netcat", "scp", "rsync", "ftp", "sftp", "tftp", "socat", "telnet", "ssh"})
# Programs whose arguments leave the machine (in a request, a ping's padding, a DNS name).
SENDING_TOOLS = NETWORK_TOOLS | frozenset({"ping", "ping6", "nslookup", "dig", "host", "traceroute", "hping3", "nping", "openssl"})
SECURITY_TOOLS = frozenset({
    "auditd", "audit", "apparmor", "selinux", "firewalld", "ufw", "iptables", "ip6tables", "nftables", "falco", "osqueryd", "osquery",
    "wazuh-agent", "wazuh", "ossec", "clamav-daemon", "clamd", "clamav", "freshclam", "fail2ban", "falcon-sensor", "crowdstrike",
    "sentinelone", "sentinelagent", "cbagent", "cb", "sysmon", "auditbeat", "filebeat", "rsyslog", "syslog", "syslog-ng",
    "systemd-journald", "journald", "aide", "tripwire", "rkhunter", "chkrootkit", "snort", "suricata", "windefend", "mdatp",
})
SECURITY_PROCESS_NAME = re.compile(
    r"\b(auditd|apparmor|selinux|firewalld|falco|osqueryd|wazuh[-_]?agent|ossec|clamd|clamav|fail2ban|falcon[-_]?sensor|crowdstrike|"
    r"sentinelone|sentinelagent|cbagent|sysmon|auditbeat|rsyslogd?|syslog-ng|systemd-journald|snort|suricata|windefend|msmpeng|mdatp)\b",
    re.IGNORECASE,
)
PRIVILEGE_ESCALATION = frozenset({"sudo", "su", "pkexec", "doas", "runuser", "gksudo", "kdesu"})
PRIVILEGED_COMMANDS = frozenset({
    "mount", "umount", "insmod", "rmmod", "modprobe", "chroot", "nsenter", "unshare", "setcap", "capsh", "useradd", "usermod",
    "userdel", "groupadd", "groupmod", "passwd", "chpasswd", "visudo", "systemctl", "service", "iptables", "ip6tables", "nft",
    "crontab", "docker", "podman", "shutdown", "reboot", "halt", "poweroff", "sysctl", "chattr", "apt", "apt-get", "yum", "dnf",
    "zypper", "apk", "pacman", "dpkg", "rpm", "snap", "hostnamectl", "timedatectl", "swapoff", "swapon", "fdisk", "parted", "losetup",
    "kubectl", "setenforce", "auditctl", "ufw", "modinfo", "depmod", "update-rc.d", "chkconfig", "launchctl", "init", "telinit",
})
MINER_BINARIES = re.compile(
    r"\b(xmrig|xmr-stak(-rx|-cpu)?|minerd|cpuminer(-multi|-opt)?|cgminer|bfgminer|ethminer|nbminer|phoenixminer|lolminer|gminer|"
    r"nanominer|teamredminer|srbminer(-multi)?|ccminer|claymore|nicehashminer|xmr-node-proxy|kdevtmpfsi|kinsing)\b",
    re.IGNORECASE,
)
MINER_TEXT = re.compile(
    r"stratum2?\+(tcp|ssl|tls|udp)://|\bmining\.(subscribe|authorize|submit|notify)\b|--donate-level|\bcryptonight\b|\bcoinhive\b|"
    r"\b(pool\.)?(minexmr|supportxmr|xmrpool|moneroocean|hashvault|nanopool|2miners|f2pool|nicehash|minergate|c3pool|herominers|"
    r"ethermine|viabtc|antpool|slushpool|poolin|dwarfpool|unmineable|zpool|miningpoolhub|xmrig)\.(com|org|net|pro|eu|stream|io|fr)\b|"
    r"\b4[0-9AB][1-9A-HJ-NP-Za-km-z]{93}\b",
    re.IGNORECASE,
)
REVERSE_SHELL_TEXT = re.compile(
    r"/dev/(tcp|udp)/|\b(nc|ncat|netcat)(\.exe)?\s+(\S+\s+)*-[a-z]*[ec]\b|\bsocat\b.*\b(exec|system):|"
    r"\bmkfifo\b.*\|\s*(nc|ncat|netcat|telnet)\b|\btelnet\b[^|]*\|\s*/bin/(ba)?sh|\bfsockopen\s*\(|\bTCPClient\s*\(|"
    r"\b(ba)?sh\s+-i\s*[<>]&|\b0<&\d+\s*;?\s*exec\b",
    re.IGNORECASE,
)
FORK_BOMB_TEXT = re.compile(r"(?P<f>[\w:.]+)\s*\(\)\s*\{\s*(?P=f)\s*\|\s*(?P=f)\s*&\s*\}\s*;\s*(?P=f)")
DOCKER_SOCKET_TEXT = re.compile(r"docker\.sock\b|\btcp://[^\s/]+:2375\b")
COMMAND_HINT = re.compile(
    r"\b(rm|mkfs[\w.]*|dd|shred|wipefs|find|chmod|chown|setenforce|ufw|systemctl|service|pkill|killall|kill|auditctl|iptables|ip6tables|"
    r"nft|aa-\w+|apparmor_parser|sysctl|history|HISTFILE|curl|wget|nc|ncat|socat|telnet|bash|sh|sudo|su|pkexec|doas|crontab|"
    r"Set-MpPreference|netsh|sc|echo|cat|tee|truncate|journalctl|pip3?|python3?|mv|cp|scp|rsync|docker|mount|insmod|modprobe|"
    r"useradd|usermod|passwd|chattr|init\.d|taskkill|killall|xkill|skill|shred|srm|vssadmin|wbadmin|bcdedit|cipher|rsync|lvremove|vgremove|pvremove|blkdiscard|zpool|zfs|sgdisk)\b|[>|]",
)
CURL_PIPE_SHELL = re.compile(r"\b(curl|wget|fetch)\b[^|;&]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b|\b(curl|wget)\b[^|;&]*\|\s*python[0-9.]*\b",
                             re.IGNORECASE)

# Which paths hold credentials is the sensitive-path model's to say (policies/sensitive_paths.yaml).
PERSISTENCE_BACKDOOR_PATHS = re.compile(r"(^|/|~)\.ssh/authorized_keys2?$|^/etc/ld\.so\.preload$|^/etc/sudoers(\.d(/.*)?)?$|^/etc/passwd$|^/etc/shadow$")
PERSISTENCE_PATHS = re.compile(
    r"^/etc/cron|^/var/spool/cron|^/etc/systemd/|(^|/|~)\.config/systemd/|^/etc/rc\.local$|^/etc/init\.d/|^/etc/profile(\.d/.*)?$|"
    r"(^|/|~)\.(bashrc|bash_profile|profile|zshrc|zprofile|bash_login|bash_logout)$|(^|/|~)\.config/autostart/|^/lib/systemd/|"
    r"^/usr/lib/systemd/|^/etc/xdg/autostart/|(^|/)Library/LaunchAgents/"
)
SECURITY_PATHS = re.compile(
    r"^/sys/fs/selinux/|^/proc/sys/kernel/randomize_va_space$|^/etc/selinux/config$|^/etc/audit(/|$)|^/var/log(/|$)|^/etc/apparmor(\.d)?(/|$)|"
    r"^/proc/sys/kernel/(yama|kptr_restrict|dmesg_restrict|modules_disabled)|^/etc/rsyslog|^/var/lib/aide"
)
SYSTEM_TOP = frozenset({"etc", "usr", "boot", "sys", "proc", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "root", "var", "opt", "srv",
                        "dev", "snap", "run"})
HARMLESS_DEVICES = re.compile(r"^/dev/(null|zero|stdout|stderr|stdin|tty|fd/\d+|shm(/.*)?|u?random|full)$|^/var/tmp(/|$)|^/run/user/|^/proc/self/(fd|status|stat|statm|cmdline|maps)")
PRIVILEGED_DEVICES = re.compile(r"^/dev/(mem|kmem|port|sd[a-z]\d*|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|loop\d+|kvm|mapper/)")
SECRETISH_ENV = re.compile(r"(SECRET|TOKEN|PASSW|PASSWD|PWD|API_?KEY|ACCESS_?KEY|PRIVATE|CREDENTIAL|AUTH|SESSION|COOKIE)", re.IGNORECASE)
EXECUTABLE_MEMORY_NAMES = frozenset({"PROT_EXEC", "VirtualAlloc", "VirtualProtect", "mprotect", "PAGE_EXECUTE_READWRITE", "CreateThread",
                                     "RtlMoveMemory", "PAGE_EXECUTE", "MEM_COMMIT"})
CLIPBOARD = frozenset({"pyperclip.paste", "pyperclip.copy", "clipboard.paste", "clipboard.copy", "win32clipboard.GetClipboardData",
                       "win32clipboard.SetClipboardText", "win32clipboard.SetClipboardData", "pandas.read_clipboard",
                       "tkinter.Tk#clipboard_get", "tkinter.Tk#clipboard_append", "xerox.paste", "xerox.copy"})
WALLET_TEXT = re.compile(
    r"\b(bc1[ac-hj-np-z02-9]{25,62}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|0x[0-9a-fA-F]{40}|4[0-9AB][1-9A-HJ-NP-Za-km-z]{93})\b|"
    r"\^\(bc1\|\[13\]\)|\[13\]\[a-km-zA-HJ-NP-Z1-9\]|\^0x\[a-fA-F0-9\]\{40\}"
)
AUTH_KEY_ARGUMENTS = frozenset({"key_filename", "pkey", "identity_file", "key_file", "ssh_key", "private_key_file", "client_keys",
                                "keyfile", "cert", "client_cert"})

# What each rule detects, in one line (SARIF's shortDescription; the advice is its help text).
SUMMARIES: dict[str, str] = {
    "reverse-shell": "A socket wired to a shell or command interpreter (reverse or bind shell).",
    "remote-command-exec": "Commands or code received over the network are executed.",
    "exfiltration": "Credentials or the whole environment are read and sent over the network.",
    "destructive-wipe": "The file system, a home folder, a system folder or a disk is deleted or overwritten.",
    "fork-bomb": "Processes are started without bound until the machine stops.",
    "crypto-miner": "A cryptocurrency miner, mining pool or wallet.",
    "disable-security": "Security tooling, firewalls, audit or logs are switched off or erased.",
    "obfuscated-exec": "Code or commands are decoded or assembled at run time and executed.",
    "obfuscated-call": "A dangerous function is reached through a name assembled at run time.",
    "shellcode-loader": "Executable memory is mapped and called: a shellcode loader.",
    "persistence-backdoor": "Keys, preloaded libraries, sudo rules or accounts are added for lasting access.",
    "clipboard-hijack": "The clipboard is watched or replaced next to cryptocurrency wallet addresses.",
    "known-threat-hash": "The code matches a known-malicious snippet.",
    "known-threat-package": "A known-malicious or typosquatting package is imported or installed.",
    "privilege-escalation": "sudo, su, pkexec or doas is used to gain privileges.",
    "privileged-command": "A command that administers the system (needs root) is run.",
    "set-uid": "The process changes its user or group id.",
    "system-path-write": "A file in a system folder is written or deleted.",
    "system-path-permission": "Owners, set-uid bits or permissions of system paths are changed.",
    "native-code": "Native code is loaded or called through ctypes or cffi.",
    "docker-socket": "The Docker socket or API, which is root on the host, is used.",
    "secret-file-read": "A credential file (keys, password hashes, tokens, browser stores) is read.",
    "credential-use": "A private key or credential file is used to log in somewhere.",
    "persistence": "A cron job, service or shell start-up hook is installed.",
    "privileged-call": "A call that needs elevated privileges (raw sockets, devices, chroot, other processes).",
    "env-secret-sent": "A secret environment variable is sent in a request's body, URL or parameters.",
    "unbounded-fork": "The process forks inside a loop of unknown length.",
    "destructive-sweep": "Files found by walking a folder outside the working directory are rewritten in place, shredded or deleted.",
    "send-system-file": "The contents of a file outside the working directory are sent over the network.",
    "process-control": "A process the program did not start is stopped, killed or suspended.",
    "sensitive-read": "A system, account or log file is read (level from the sensitive-path model).",
    "sensitive-list": "A system or credential folder is listed (level from the sensitive-path model).",
    "sensitive-write": "A system, account or start-up file is written (level from the sensitive-path model).",
    "sensitive-delete": "A system, account or start-up file is deleted (level from the sensitive-path model).",
    "command-exec": "An external command is run.",
    "code-exec": "Text computed at run time is executed with exec/eval.",
    "dynamic-import": "A module is imported by a name known only at run time.",
    "process-signal": "A reload or report signal is sent to a process the program did not start.",
    "indirect-call": "A function is reached through getattr, __import__ or globals().",
    "network": "The network is used.",
    "outside-write": "A file outside the working directory is written.",
    "deserialization": "Data is deserialised with a format that can run code (pickle, marshal, unsafe YAML).",
    "weak-crypto": "A broken hash or weak cipher is used.",
    "process-fork": "The process forks.",
    "recursive-delete": "A folder tree is deleted.",
    "package-install": "Packages are installed while the program runs.",
    "dangerous-command-text": "The program holds the text of a destructive command.",
    "parse-failed": "The code does not parse, so only its readable parts were checked.",
    "too-complex": "The code is nested or long beyond what is reviewed reliably.",
    "opacity": "What the code reaches is chosen at run time or hidden from the analysis, and could be a dangerous capability.",
}
