# expect: BENIGN category: misc
from flask import Flask, jsonify, request

app = Flask(__name__)
NOTES = []

@app.post("/notes")
def add_note():
    NOTES.append(request.get_json(force=True)["text"])
    return jsonify(id=len(NOTES) - 1), 201

@app.get("/notes")
def list_notes():
    return jsonify(NOTES)

if __name__ == "__main__":
    app.run(host="127.0.0.1", port=5000)
