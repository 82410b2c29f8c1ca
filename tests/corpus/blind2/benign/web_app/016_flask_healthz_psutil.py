import psutil
from flask import Flask, jsonify

app = Flask(__name__)

@app.get("/healthz")
def healthz():
    return jsonify(cpu=psutil.cpu_percent(), mem=psutil.virtual_memory().percent,
                   disk=psutil.disk_usage("/").percent)

if __name__ == "__main__":
    app.run(host="127.0.0.1", port=9000)
