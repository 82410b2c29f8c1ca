import sqlite3
from flask import Flask, g, jsonify, request

app = Flask(__name__)
DB = "notes.db"

def db():
    if "db" not in g:
        g.db = sqlite3.connect(DB)
        g.db.execute("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT)")
    return g.db

@app.teardown_appcontext
def close(_):
    if (c := g.pop("db", None)) is not None:
        c.close()

@app.post("/notes")
def add():
    cur = db().execute("INSERT INTO notes (body) VALUES (?)", (request.json["body"],))
    db().commit()
    return jsonify(id=cur.lastrowid)

@app.get("/notes")
def list_notes():
    return jsonify(db().execute("SELECT id, body FROM notes").fetchall())
