import asyncio

async def main():
    reader, writer = await asyncio.open_connection("127.0.0.1", 8888)
    writer.write(b"hello chat\n")
    await writer.drain()
    line = await asyncio.wait_for(reader.readline(), timeout=5)
    print("got:", line.decode().strip())
    writer.close()
    await writer.wait_closed()

asyncio.run(main())
