# expect: BENIGN category: misc
import os
from contextlib import contextmanager

@contextmanager
def working_directory(path):
    previous = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)

os.makedirs("output", exist_ok=True)
with working_directory("output"):
    with open("result.txt", "w") as handle:
        handle.write("42\n")
print(open("output/result.txt").read())
