import subprocess

def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip()

branch = git("rev-parse", "--abbrev-ref", "HEAD")
commit = git("rev-parse", "--short", "HEAD")
dirty = bool(git("status", "--porcelain"))
print(f"{branch}@{commit}{' (dirty)' if dirty else ''}")
