from functools import lru_cache

@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

for n in (10, 50, 100):
    print(n, fib(n))
print(fib.cache_info())
