import json
import tempfile

data = {"users": [1, 2, 3]}
with tempfile.NamedTemporaryFile("w+", suffix=".json", delete=True) as tf:
    json.dump(data, tf)
    tf.seek(0)
    print(json.load(tf))
    print("temp file at", tf.name)
