import multiprocessing as mp
import time

def crunch(n):
    time.sleep(n % 3)
    return n * n

if __name__ == "__main__":
    pool = mp.Pool(4)
    res = pool.map_async(crunch, range(20))
    try:
        print(res.get(timeout=10))
    except mp.TimeoutError:
        print("timeout, terminating pool")
        pool.terminate()
    finally:
        pool.join()
