# expect: BENIGN category: misc
import asyncio
import random

async def producer(queue):
    for i in range(10):
        await queue.put(i)
        await asyncio.sleep(random.random() / 100)
    await queue.put(None)

async def consumer(queue):
    while (item := await queue.get()) is not None:
        print("consumed", item)

async def main():
    queue = asyncio.Queue()
    await asyncio.gather(producer(queue), consumer(queue))

asyncio.run(main())
