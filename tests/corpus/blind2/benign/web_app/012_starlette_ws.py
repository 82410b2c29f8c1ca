from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

async def echo(ws):
    await ws.accept()
    async for msg in ws.iter_text():
        await ws.send_text(f"echo: {msg}")
    await ws.close()

app = Starlette(routes=[WebSocketRoute("/ws", echo)])
