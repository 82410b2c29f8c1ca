import argparse
import shutil
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("command", nargs="+")
args = ap.parse_args()

elevate = "doas" if shutil.which("doas") else "sudo"
subprocess.run([elevate, *args.command])
