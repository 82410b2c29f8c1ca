from multiprocessing import Process, Event
import time

def heartbeat(stop):
    while not stop.is_set():
        print("tick")
        time.sleep(0.5)

if __name__ == "__main__":
    stop = Event()
    p = Process(target=heartbeat, args=(stop,))
    p.start()
    time.sleep(2)
    stop.set()
    p.join(timeout=2)
    if p.is_alive():
        p.terminate()
