from typing import Callable, TypeVar

T = TypeVar("T")

def merge_sort(xs: list[T], key: Callable[[T], object] = lambda x: x) -> list[T]:
    if len(xs) < 2:
        return xs[:]
    mid = len(xs) // 2
    left, right = merge_sort(xs[:mid], key), merge_sort(xs[mid:], key)
    out = []
    while left and right:
        out.append(left.pop(0) if key(left[0]) <= key(right[0]) else right.pop(0))
    return out + left + right

people = [("ann", 31), ("bob", 25), ("cy", 40), ("di", 25)]
print(merge_sort(people, key=lambda p: p[1]))
