"""Release in-memory resources when their owners are garbage-collected (weakref.finalize)."""
import gc
import weakref

POOL = {"buffers": 0}


class Buffer:
    def __init__(self, size):
        POOL["buffers"] += 1
        self.data = bytearray(size)
        self._fin = weakref.finalize(self, Buffer._release, size)

    @staticmethod
    def _release(size):
        POOL["buffers"] -= 1
        print("released", size, "bytes")


def main():
    a, b = Buffer(16), Buffer(32)
    print("live", POOL["buffers"])
    del a
    gc.collect()
    print("live", POOL["buffers"])
    b._fin()
    print("live", POOL["buffers"])


if __name__ == "__main__":
    main()
