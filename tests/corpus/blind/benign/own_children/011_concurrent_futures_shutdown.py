from concurrent.futures import ProcessPoolExecutor, as_completed
import math

def is_prime(n):
    if n < 2:
        return False
    return all(n % d for d in range(2, int(math.isqrt(n)) + 1))

if __name__ == "__main__":
    nums = range(10**6, 10**6 + 200)
    with ProcessPoolExecutor(max_workers=2) as ex:
        futs = {ex.submit(is_prime, n): n for n in nums}
        primes = [futs[f] for f in as_completed(futs) if f.result()]
        ex.shutdown(cancel_futures=True)
    print(sorted(primes)[:10])
