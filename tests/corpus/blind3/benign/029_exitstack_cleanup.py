import contextlib
import io


class Resource:
    log = []

    def __init__(self, name):
        self.name = name
        Resource.log.append(f"open {name}")

    def close(self):
        Resource.log.append(f"close {self.name}")


@contextlib.contextmanager
def transaction(name):
    Resource.log.append(f"begin {name}")
    try:
        yield name
        Resource.log.append(f"commit {name}")
    except ValueError:
        Resource.log.append(f"rollback {name}")


if __name__ == "__main__":
    with contextlib.ExitStack() as stack:
        for n in ("a", "b", "c"):
            stack.callback(Resource(n).close)
        stack.enter_context(transaction("t1"))
        buf = stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
        print("captured text")
    with transaction("t2"):
        raise ValueError("boom")
    print("\n".join(Resource.log))
    print("captured:", buf.getvalue().strip())
