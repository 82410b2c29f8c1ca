import asyncio
import pytest


async def fetch_all(values, delay=0.01):
    async def one(v):
        await asyncio.sleep(delay)
        return v * 2
    return await asyncio.gather(*(one(v) for v in values))


@pytest.mark.asyncio
async def test_fetch_all():
    assert await fetch_all([1, 2, 3]) == [2, 4, 6]


def test_sync_wrapper():
    assert asyncio.run(fetch_all([5])) == [10]
