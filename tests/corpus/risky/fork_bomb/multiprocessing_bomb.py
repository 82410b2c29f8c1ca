# expect: BLOCKED category: fork_bomb
# Starts processes in an endless loop and never waits for them.
import multiprocessing

def spin():
    while True:
        pass

if __name__ == "__main__":
    while True:
        multiprocessing.Process(target=spin).start()
