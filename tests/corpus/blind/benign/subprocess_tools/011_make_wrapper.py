import argparse
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("target", choices=["build", "test", "lint", "docs"])
ap.add_argument("-j", type=int, default=2)
a = ap.parse_args()
subprocess.run(["make", f"-j{a.j}", a.target], check=True)
print(a.target, "finished")
