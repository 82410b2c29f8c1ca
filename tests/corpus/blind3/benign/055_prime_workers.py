import concurrent.futures
import queue
import threading


def is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True


def worker(tasks, results):
    while True:
        n = tasks.get()
        if n is None:
            break
        results.put((n, is_prime(n)))


if __name__ == "__main__":
    tasks, results = queue.Queue(), queue.Queue()
    threads = [threading.Thread(target=worker, args=(tasks, results)) for _ in range(3)]
    for t in threads:
        t.start()
    for n in range(100, 140):
        tasks.put(n)
    for _ in threads:
        tasks.put(None)
    for t in threads:
        t.join()
    found = []
    while not results.empty():
        n, ok = results.get()
        if ok:
            found.append(n)
    found.sort()
    print("primes:", found)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        print(sum(pool.map(is_prime, range(1000))), "primes below 1000")
