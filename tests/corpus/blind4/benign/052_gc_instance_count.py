"""Count live instances of the application's own classes with gc (leak check)."""
import collections
import gc


class Session:
    def __init__(self, user):
        self.user = user


class Request:
    def __init__(self, session):
        self.session = session


def live_counts(*classes):
    gc.collect()
    counts = collections.Counter(type(o).__name__ for o in gc.get_objects() if isinstance(o, classes))
    return dict(counts)


def main():
    sessions = [Session(u) for u in "abc"]
    requests = [Request(s) for s in sessions for _ in range(2)]
    print(live_counts(Session, Request))
    del requests
    print(live_counts(Session, Request))


if __name__ == "__main__":
    main()
