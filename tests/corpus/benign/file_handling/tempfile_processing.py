# expect: BENIGN category: file_handling
import os
import tempfile

with tempfile.TemporaryDirectory() as workdir:
    scratch = os.path.join(workdir, "scratch.txt")
    with open(scratch, "w") as handle:
        handle.write("intermediate results\n")
    with open(scratch) as handle:
        print(handle.read().upper())
