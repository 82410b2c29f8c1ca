from pathlib import Path
from fastapi import FastAPI, UploadFile

app = FastAPI()
STORE = Path("uploads")
STORE.mkdir(exist_ok=True)

@app.post("/upload")
async def upload(file: UploadFile):
    safe = Path(file.filename).name
    dest = STORE / safe
    dest.write_bytes(await file.read())
    return {"stored": safe, "bytes": dest.stat().st_size}
