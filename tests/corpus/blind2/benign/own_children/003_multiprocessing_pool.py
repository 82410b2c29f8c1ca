from multiprocessing import Pool
import time

def work(n):
    time.sleep(0.1)
    return n * n

if __name__ == "__main__":
    with Pool(4) as pool:
        results = pool.map(work, range(20))
    print(sum(results))
