# expect: MEDIUM category: risky
# Installs a package from an index the program chooses.
import subprocess
import sys

subprocess.check_call([sys.executable, "-m", "pip", "install", "--index-url", "http://packages.example.net/simple", "fastjsonx"])
