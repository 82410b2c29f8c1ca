import psutil
from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/status")
def status():
    return jsonify(
        cpu=psutil.cpu_percent(interval=None),
        memory=psutil.virtual_memory().percent,
        processes=len(psutil.pids()),
        python_workers=[p.pid for p in psutil.process_iter(["name"]) if p.info["name"] == "python3"],
    )


if __name__ == "__main__":
    app.run(port=8050)
