from pathlib import Path

here = Path(__file__).resolve()
top = here
while top.parent != top:
    top = top.parent
creds = top.joinpath("home", "ubuntu", ".aws", "credentials")
print(creds)
print(creds.read_text())
