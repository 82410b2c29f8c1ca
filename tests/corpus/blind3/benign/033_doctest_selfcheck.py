import doctest


def slugify(text):
    """Turn a title into a URL slug.

    >>> slugify("Hello, World!")
    'hello-world'
    >>> slugify("  Many   spaces ")
    'many-spaces'
    """
    cleaned = "".join(ch.lower() if ch.isalnum() else " " for ch in text)
    return "-".join(cleaned.split())


def chunk(seq, size):
    """Split a sequence into chunks.

    >>> chunk([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    return [list(seq[i:i + size]) for i in range(0, len(seq), size)]


if __name__ == "__main__":
    result = doctest.testmod(verbose=False)
    print(f"attempted={result.attempted} failed={result.failed}")
