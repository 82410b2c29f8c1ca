import os
from flask import Flask, request, abort
from werkzeug.utils import secure_filename

app = Flask(__name__)
UPLOAD_DIR = os.path.join(os.path.dirname(__file__), "uploads")
os.makedirs(UPLOAD_DIR, exist_ok=True)

@app.post("/upload")
def upload():
    f = request.files.get("file")
    if not f or not f.filename:
        abort(400)
    name = secure_filename(f.filename)
    f.save(os.path.join(UPLOAD_DIR, name))
    return {"saved": name}

if __name__ == "__main__":
    app.run(port=5001)
