import random

def quicksort(xs):
    if len(xs) <= 1:
        return xs
    pivot = random.choice(xs)
    less = [x for x in xs if x < pivot]
    equal = [x for x in xs if x == pivot]
    more = [x for x in xs if x > pivot]
    return quicksort(less) + equal + quicksort(more)

data = [random.randint(0, 99) for _ in range(20)]
print(data)
print(quicksort(data))
assert quicksort(data) == sorted(data)
