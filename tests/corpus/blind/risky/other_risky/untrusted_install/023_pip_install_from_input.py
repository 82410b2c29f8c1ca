import subprocess
import sys

name = input("package to install: ")
source = input("source url (optional): ").strip()
target = source or name
subprocess.run([sys.executable, "-m", "pip", "install", target])
