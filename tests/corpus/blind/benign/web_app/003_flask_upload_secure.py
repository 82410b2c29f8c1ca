import os
from flask import Flask, request, redirect
from werkzeug.utils import secure_filename

UPLOAD_DIR = os.path.join(os.path.dirname(__file__), "uploads")
ALLOWED = {".png", ".jpg", ".pdf"}
app = Flask(__name__)
app.config["MAX_CONTENT_LENGTH"] = 5 * 1024 * 1024


@app.post("/upload")
def upload():
    f = request.files.get("file")
    if not f or os.path.splitext(f.filename)[1].lower() not in ALLOWED:
        return "bad file", 400
    os.makedirs(UPLOAD_DIR, exist_ok=True)
    f.save(os.path.join(UPLOAD_DIR, secure_filename(f.filename)))
    return redirect("/")
