import asyncio
import httpx

IDS = range(1, 11)

async def main():
    async with httpx.AsyncClient(base_url="https://jsonplaceholder.typicode.com", timeout=10) as c:
        posts = await asyncio.gather(*(c.get(f"/posts/{i}") for i in IDS))
        for p in posts:
            print(p.json()["id"], p.json()["title"][:50])

asyncio.run(main())
