from flask import Flask, request, session, redirect, render_template_string
import hashlib, os

app = Flask(__name__)
app.secret_key = os.urandom(16)
USERS = {"admin": hashlib.sha256(b"change-me").hexdigest()}

@app.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        u, p = request.form["user"], request.form["pw"]
        if USERS.get(u) == hashlib.sha256(p.encode()).hexdigest():
            session["user"] = u
            return redirect("/")
    return render_template_string('<form method=post><input name=user><input name=pw type=password><button>go</button></form>')

@app.route("/")
def index():
    return f"hello {session.get('user', 'guest')}"
