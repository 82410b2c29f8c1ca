import os
import subprocess
import tempfile

editor = os.environ.get("EDITOR", "nano")
with tempfile.NamedTemporaryFile("w+", suffix=".md", delete=False) as tf:
    tf.write("# Commit message\n\n")
    name = tf.name
subprocess.call([editor, name])
with open(name) as fh:
    message = fh.read()
os.unlink(name)
print("message:", message.strip())
