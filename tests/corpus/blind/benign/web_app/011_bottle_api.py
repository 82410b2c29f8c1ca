from bottle import Bottle, request, response, run

app = Bottle()
notes = {}


@app.post("/notes/<key>")
def save(key):
    notes[key] = request.body.read().decode()
    return {"saved": key}


@app.get("/notes/<key>")
def get(key):
    if key not in notes:
        response.status = 404
        return {"error": "not found"}
    return {"key": key, "text": notes[key]}


run(app, host="localhost", port=8081)
