"""Custom pickling with __reduce__ for a class holding a compiled regex (rebuilt on load)."""
import pickle
import re


class Matcher:
    def __init__(self, pattern):
        self.pattern = pattern
        self._rx = re.compile(pattern)

    def __reduce__(self):
        return (Matcher, (self.pattern,))

    def find(self, text):
        return self._rx.findall(text)


def main():
    m = Matcher(r"\b\d{3}\b")
    clone = pickle.loads(pickle.dumps(m))
    print(clone.find("call 555 or 123, not 4567"), clone is not m)


if __name__ == "__main__":
    main()
