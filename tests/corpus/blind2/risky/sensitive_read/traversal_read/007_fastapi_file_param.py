from fastapi import FastAPI
from fastapi.responses import FileResponse
import os

app = FastAPI()
BASE = "/app/reports"

@app.get("/report")
def report(name: str):
    # e.g. /report?name=../../etc/passwd
    return FileResponse(os.path.join(BASE, name))
