from flask import Flask, render_template_string, request, session, redirect
from werkzeug.security import check_password_hash, generate_password_hash
import os

app = Flask(__name__)
app.secret_key = os.environ.get("SECRET_KEY", "dev-only")
USERS = {"alice": generate_password_hash("wonderland")}
FORM = '<form method=post><input name=u><input name=p type=password><button>Login</button></form>'


@app.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        u, p = request.form["u"], request.form["p"]
        if u in USERS and check_password_hash(USERS[u], p):
            session["user"] = u
            return redirect("/")
    return render_template_string(FORM)
