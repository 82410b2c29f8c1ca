import tempfile
import os

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "scratch.txt")
    with open(path, "w") as f:
        f.write("\n".join(str(i * i) for i in range(100)))
    with open(path) as f:
        print(sum(int(x) for x in f))
