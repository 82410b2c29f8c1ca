import subprocess
import sys

def run_cli(*args):
    return subprocess.run([sys.executable, "wordcount.py", *args], capture_output=True, text=True)

def test_help():
    r = run_cli("--help")
    assert r.returncode == 0
    assert "usage" in r.stdout.lower()

def test_missing_file():
    r = run_cli("does-not-exist.txt")
    assert r.returncode != 0
