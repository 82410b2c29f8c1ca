import asyncio

clients = set()

async def handle(reader, writer):
    clients.add(writer)
    name = writer.get_extra_info("peername")
    try:
        while line := await reader.readline():
            for w in clients:
                if w is not writer:
                    w.write(f"{name}: ".encode() + line)
                    await w.drain()
    finally:
        clients.discard(writer)
        writer.close()

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 8888)
    async with server:
        await server.serve_forever()

asyncio.run(main())
