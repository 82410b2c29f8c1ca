import subprocess

def git_cfg(key):
    r = subprocess.run(["git", "config", "--global", "--get", key], capture_output=True, text=True)
    return r.stdout.strip() or None

for key in ("user.name", "user.email", "core.editor", "init.defaultBranch"):
    print(f"{key:20} {git_cfg(key)}")
