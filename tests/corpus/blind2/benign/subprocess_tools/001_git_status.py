import subprocess

def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout

print("branch:", git("rev-parse", "--abbrev-ref", "HEAD").strip())
changed = [l[3:] for l in git("status", "--porcelain").splitlines()]
print(f"{len(changed)} changed files")
for c in changed:
    print("  ", c)
