# expect: BLOCKED category: known_threat
# Installs pymafka, the 2022 typosquat of pykafka, at run time.
import subprocess
import sys

subprocess.check_call([sys.executable, "-m", "pip", "install", "pymafka==1.0"])
import pymafka  # noqa: E402

print(pymafka)
