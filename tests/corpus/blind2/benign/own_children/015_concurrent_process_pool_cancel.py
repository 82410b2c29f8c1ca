from concurrent.futures import ProcessPoolExecutor, TimeoutError
import math

def heavy(n):
    return sum(math.isqrt(i) for i in range(n))

if __name__ == "__main__":
    with ProcessPoolExecutor(max_workers=2) as ex:
        futs = [ex.submit(heavy, 10**6 * k) for k in range(1, 5)]
        for f in futs:
            try:
                print(f.result(timeout=5))
            except TimeoutError:
                f.cancel()
                print("gave up on a task")
