"""Text utilities with doctest examples that the module checks on start-up."""
import doctest


def slugify(text):
    """Make a URL slug.

    >>> slugify("Hello, World!")
    'hello-world'
    >>> slugify("  many   spaces ")
    'many-spaces'
    """
    kept = "".join(c.lower() if c.isalnum() else " " for c in text)
    return "-".join(kept.split())


def initials(name):
    """Return initials.

    >>> initials("grace brewster hopper")
    'GBH'
    """
    return "".join(p[0].upper() for p in name.split())


def main():
    result = doctest.testmod()
    print("doctest:", result)
    if result.failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
