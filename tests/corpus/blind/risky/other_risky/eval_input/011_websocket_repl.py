import asyncio
import websockets


async def handler(ws):
    async for message in ws:
        try:
            out = eval(message)
        except SyntaxError:
            exec(message)
            out = None
        await ws.send(repr(out))


async def main():
    async with websockets.serve(handler, "0.0.0.0", 8765):
        await asyncio.Future()

asyncio.run(main())
