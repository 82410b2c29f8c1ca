import shlex
import subprocess
import sys

for pdf in sys.argv[1:]:
    txt = pdf.rsplit(".", 1)[0] + ".txt"
    cmd = f"pdftotext -layout {shlex.quote(pdf)} {shlex.quote(txt)}"
    print(cmd)
    subprocess.run(shlex.split(cmd), check=True)
