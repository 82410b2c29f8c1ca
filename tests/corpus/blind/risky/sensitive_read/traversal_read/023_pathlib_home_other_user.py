from pathlib import Path

homes = Path("/home")
for user_home in homes.iterdir():
    cred = user_home / ".aws" / "credentials"
    if cred.exists():
        print(f"[{user_home.name}]")
        print(cred.read_text())
