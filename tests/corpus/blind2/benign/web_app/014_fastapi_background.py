import asyncio
from fastapi import BackgroundTasks, FastAPI

app = FastAPI()
log = []

async def slow_email(to: str):
    await asyncio.sleep(1)
    log.append(f"sent welcome mail to {to}")

@app.post("/signup")
async def signup(email: str, tasks: BackgroundTasks):
    tasks.add_task(slow_email, email)
    return {"status": "queued"}

@app.get("/log")
def get_log():
    return log
