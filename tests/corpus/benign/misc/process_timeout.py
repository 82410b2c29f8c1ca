# expect: BENIGN category: misc
import multiprocessing
import os
import signal


def slow():
    import time
    time.sleep(30)


if __name__ == "__main__":
    job = multiprocessing.Process(target=slow)
    job.start()
    job.join(timeout=2)
    if job.is_alive():
        os.kill(job.pid, signal.SIGTERM)
        job.join()
    print("exit code", job.exitcode)
