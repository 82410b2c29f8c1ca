"""Build a tar archive in memory and extract it safely into a local temporary folder."""
import io
import os
import tarfile
import tempfile

FILES = {"docs/readme.txt": b"hello\n", "docs/notes/todo.txt": b"- write tests\n"}


def build():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in FILES.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    buf.seek(0)
    return buf


def main():
    with tempfile.TemporaryDirectory(dir=".") as out:
        with tarfile.open(fileobj=build()) as tf:
            print(tf.getnames())
            tf.extractall(out, filter="data")
        for base, _, files in os.walk(out):
            for f in files:
                print(os.path.relpath(os.path.join(base, f), out))


if __name__ == "__main__":
    main()
