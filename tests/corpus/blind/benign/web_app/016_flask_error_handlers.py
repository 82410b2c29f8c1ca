import logging
from flask import Flask, jsonify

app = Flask(__name__)
logging.basicConfig(level=logging.INFO)


@app.errorhandler(404)
def not_found(e):
    return jsonify(error="not found"), 404


@app.errorhandler(Exception)
def unhandled(e):
    app.logger.exception("unhandled error")
    return jsonify(error="internal error"), 500


@app.get("/divide/<int:a>/<int:b>")
def divide(a, b):
    return jsonify(result=a / b)
