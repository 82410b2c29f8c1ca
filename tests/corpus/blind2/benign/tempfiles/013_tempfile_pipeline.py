import subprocess
import tempfile

with tempfile.NamedTemporaryFile("w+", suffix=".csv") as raw, tempfile.NamedTemporaryFile("w+", suffix=".csv") as sorted_:
    raw.write("b,2\na,1\nc,3\n")
    raw.flush()
    subprocess.run(["sort", raw.name], stdout=sorted_, check=True)
    sorted_.seek(0)
    print(sorted_.read())
