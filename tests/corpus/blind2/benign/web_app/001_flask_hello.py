from flask import Flask, jsonify, request

app = Flask(__name__)
items = []

@app.get("/items")
def list_items():
    return jsonify(items)

@app.post("/items")
def add_item():
    items.append(request.get_json())
    return jsonify(ok=True), 201

if __name__ == "__main__":
    app.run(host="127.0.0.1", port=5000, debug=True)
