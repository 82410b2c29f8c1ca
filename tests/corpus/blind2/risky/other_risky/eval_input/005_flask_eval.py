from flask import Flask, request

app = Flask(__name__)

@app.route("/calc")
def calc():
    expr = request.args.get("q", "1+1")
    return str(eval(expr))

app.run(host="0.0.0.0", port=8080)
