import shutil
import subprocess
import tempfile

work = tempfile.mkdtemp(prefix="build-")
try:
    subprocess.run(["git", "clone", "--depth", "1", "https://github.com/psf/requests.git", work], check=True)
    print(sum(1 for _ in open(f"{work}/README.md")), "lines in README")
finally:
    shutil.rmtree(work)
