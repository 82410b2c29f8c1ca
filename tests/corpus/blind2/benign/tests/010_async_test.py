import asyncio
import pytest

async def fetch_number(delay):
    await asyncio.sleep(delay)
    return 42

@pytest.mark.asyncio
async def test_fetch_number():
    assert await fetch_number(0.01) == 42

@pytest.mark.asyncio
async def test_timeout():
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(fetch_number(1), timeout=0.01)
