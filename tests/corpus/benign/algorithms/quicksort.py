# expect: BENIGN category: algorithms
import random

def quicksort(items):
    if len(items) <= 1:
        return items
    pivot = random.choice(items)
    return quicksort([x for x in items if x < pivot]) + [x for x in items if x == pivot] + quicksort([x for x in items if x > pivot])

data = [random.randint(0, 100) for _ in range(20)]
print(quicksort(data))
