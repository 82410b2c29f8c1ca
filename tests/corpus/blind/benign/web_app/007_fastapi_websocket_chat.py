from fastapi import FastAPI, WebSocket, WebSocketDisconnect

app = FastAPI()
clients: set[WebSocket] = set()


@app.websocket("/ws")
async def chat(ws: WebSocket):
    await ws.accept()
    clients.add(ws)
    try:
        while True:
            msg = await ws.receive_text()
            for c in list(clients):
                await c.send_text(msg)
    except WebSocketDisconnect:
        clients.discard(ws)
