from pathlib import Path

conf = Path("/etc/ssh/sshd_config").read_text()
settings = {}
for raw in conf.splitlines():
    raw = raw.strip()
    if raw and not raw.startswith("#"):
        key, _, value = raw.partition(" ")
        settings[key] = value
print(settings.get("PermitRootLogin"), settings.get("PasswordAuthentication"))
print(len(settings), "settings")
