import functools


@functools.lru_cache(maxsize=None)
def ways(amount, coins):
    if amount == 0:
        return 1
    if amount < 0 or not coins:
        return 0
    return ways(amount - coins[0], coins) + ways(amount, coins[1:])


def price(base, rate, qty):
    return round(base * qty * (1 + rate), 2)


if __name__ == "__main__":
    print("ways to make 100:", ways(100, (50, 25, 10, 5, 1)))
    print(ways.cache_info())
    pricing = {region: functools.partial(price, rate=rate) for region, rate in {"eu": 0.2, "us": 0.07, "jp": 0.1}.items()}
    for region, fn in pricing.items():
        print(region, fn(9.99, qty=3), fn.keywords)
