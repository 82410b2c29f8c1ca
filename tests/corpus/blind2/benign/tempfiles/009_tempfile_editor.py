import os
import subprocess
import tempfile

editor = os.environ.get("EDITOR", "vi")
with tempfile.NamedTemporaryFile("w+", suffix=".md") as tf:
    tf.write("# commit message\n")
    tf.flush()
    subprocess.call([editor, tf.name])
    tf.seek(0)
    msg = tf.read()
print("you wrote:", msg)
