from pathlib import Path
from flask import Flask, abort, send_from_directory

app = Flask(__name__)
STATIC = Path(__file__).parent / "static"

@app.route("/files/<path:name>")
def files(name):
    # send_from_directory rejects ../ escapes
    try:
        return send_from_directory(STATIC, name)
    except Exception:
        abort(404)

if __name__ == "__main__":
    app.run(port=8000)
