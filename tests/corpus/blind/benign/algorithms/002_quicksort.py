def quicksort(xs):
    if len(xs) <= 1:
        return xs
    pivot, *rest = xs
    return quicksort([x for x in rest if x < pivot]) + [pivot] + quicksort([x for x in rest if x >= pivot])

import random
data = [random.randint(0, 100) for _ in range(20)]
print(data)
print(quicksort(data))
