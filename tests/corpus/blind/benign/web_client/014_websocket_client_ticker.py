import asyncio
import json
import websockets

async def main():
    async with websockets.connect("wss://ws.postman-echo.com/raw") as ws:
        for n in range(3):
            await ws.send(json.dumps({"n": n}))
            print("echo:", await ws.recv())

asyncio.run(main())
