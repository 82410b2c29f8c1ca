import asyncio
import httpx

URLS = [
    "https://httpbin.org/get",
    "https://httpbin.org/uuid",
    "https://httpbin.org/ip",
]

async def main():
    async with httpx.AsyncClient(timeout=10) as client:
        responses = await asyncio.gather(*(client.get(u) for u in URLS))
    for r in responses:
        print(r.url, r.status_code, len(r.content))

asyncio.run(main())
