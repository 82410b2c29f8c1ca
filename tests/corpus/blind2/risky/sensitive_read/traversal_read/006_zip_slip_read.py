from flask import Flask, request, send_file

app = Flask(__name__)
DOCS = "docs/"

@app.route("/download")
def download():
    fname = request.args["f"]
    return send_file(DOCS + fname)  # ?f=../../../etc/shadow

if __name__ == "__main__":
    app.run()
