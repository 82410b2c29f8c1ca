def median(values):
    """Return the median.

    >>> median([3, 1, 2])
    2
    >>> median([4, 1, 3, 2])
    2.5
    """
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


if __name__ == "__main__":
    import doctest
    doctest.testmod(verbose=True)
