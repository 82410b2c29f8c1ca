import atexit
import random
import threading

STATS = {"rolls": 0, "sixes": 0}
LOCK = threading.Lock()


def summary():
    print(f"rolled {STATS['rolls']} times, {STATS['sixes']} sixes")


atexit.register(summary)


def roller(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        value = rng.randint(1, 6)
        with LOCK:
            STATS["rolls"] += 1
            STATS["sixes"] += value == 6


if __name__ == "__main__":
    threads = [threading.Thread(target=roller, args=(s, 1000)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done = threading.Event()
    threading.Timer(0.05, done.set).start()
    done.wait(2)
    print("all threads finished")
