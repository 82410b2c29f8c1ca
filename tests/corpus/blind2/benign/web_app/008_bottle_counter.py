from bottle import route, run

hits = {"count": 0}

@route("/")
def index():
    hits["count"] += 1
    return f"<h1>visits: {hits['count']}</h1>"

run(host="localhost", port=8080)
