from pathlib import Path

ROOT = Path("/")
etc = ROOT / "etc"
sensitive = [etc / "shadow", etc / "security" / "opasswd", etc / "pam.d" / "sshd"]
for s in sensitive:
    try:
        print(s, s.read_text()[:400])
    except OSError as exc:
        print(s, exc)
