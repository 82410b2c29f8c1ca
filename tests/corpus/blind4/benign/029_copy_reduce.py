"""Custom copy behaviour via __reduce_ex__ and __deepcopy__ for a cache-bearing object."""
import copy


class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
        self._cache = {}

    def __reduce_ex__(self, protocol):
        # do not copy the cache; rebuild from rows only
        return (Matrix, (self.rows,))

    def __deepcopy__(self, memo):
        return Matrix(copy.deepcopy(self.rows, memo))

    def trace(self):
        if "trace" not in self._cache:
            self._cache["trace"] = sum(self.rows[i][i] for i in range(len(self.rows)))
        return self._cache["trace"]


def main():
    m = Matrix([[1, 2], [3, 4]])
    m.trace()
    shallow = copy.copy(m)
    deep = copy.deepcopy(m)
    print(shallow.rows, shallow._cache, deep.rows is m.rows, deep.trace())


if __name__ == "__main__":
    main()
