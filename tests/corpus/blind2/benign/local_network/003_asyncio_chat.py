import asyncio

clients = set()

async def handle(reader, writer):
    clients.add(writer)
    try:
        while line := await reader.readline():
            for c in clients:
                if c is not writer:
                    c.write(line)
                    await c.drain()
    finally:
        clients.discard(writer)
        writer.close()

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 8888)
    async with server:
        await server.serve_forever()

asyncio.run(main())
