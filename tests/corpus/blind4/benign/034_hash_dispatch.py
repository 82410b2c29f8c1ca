"""Consistent routing of user IDs to shard handlers by hash."""
import hashlib


def shard_a(uid):
    return f"{uid} -> shard A"


def shard_b(uid):
    return f"{uid} -> shard B"


def shard_c(uid):
    return f"{uid} -> shard C"


HANDLERS = [shard_a, shard_b, shard_c]


def route(uid):
    h = int(hashlib.sha256(uid.encode()).hexdigest(), 16)
    return HANDLERS[h % len(HANDLERS)](uid)


def main():
    for uid in ["alice", "bob", "carol", "dave", "erin"]:
        print(route(uid))


if __name__ == "__main__":
    main()
