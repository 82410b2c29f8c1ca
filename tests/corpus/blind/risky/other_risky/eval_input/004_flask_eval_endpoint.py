from flask import Flask, request

app = Flask(__name__)


@app.route("/calc")
def calc():
    q = request.args.get("q", "1+1")
    return {"result": eval(q)}


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000)
