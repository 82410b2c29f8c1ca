def mean(xs):
    """Return the arithmetic mean.

    >>> mean([1, 2, 3])
    2.0
    >>> mean([])
    Traceback (most recent call last):
    ...
    ZeroDivisionError: division by zero
    """
    return sum(xs) / len(xs)

if __name__ == "__main__":
    import doctest
    doctest.testmod(verbose=True)
