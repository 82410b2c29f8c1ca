"""Use breakpoint() as a checkpoint marker by installing a custom sys.breakpointhook."""
import sys

CHECKPOINTS = []


def record(*args, **kwargs):
    frame = sys._getframe(1)
    CHECKPOINTS.append((frame.f_code.co_name, frame.f_lineno, args))


def work():
    total = 0
    for i in range(5):
        total += i
    breakpoint("after loop")
    return total


def main():
    old = sys.breakpointhook
    sys.breakpointhook = record
    try:
        print("total", work())
    finally:
        sys.breakpointhook = old
    print(CHECKPOINTS)


if __name__ == "__main__":
    main()
