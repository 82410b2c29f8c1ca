import subprocess
import sys

since = sys.argv[1] if len(sys.argv) > 1 else "v1.0.0"
log = subprocess.run(["git", "log", f"{since}..HEAD", "--pretty=format:%h %s (%an)"],
                     capture_output=True, text=True).stdout
features = [l for l in log.splitlines() if " feat" in l]
fixes = [l for l in log.splitlines() if " fix" in l]
print("## Features\n" + "\n".join(f"- {l}" for l in features))
print("\n## Fixes\n" + "\n".join(f"- {l}" for l in fixes))
