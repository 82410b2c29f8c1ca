def knapsack(items, capacity):
    best = [0] * (capacity + 1)
    for weight, value in items:
        for c in range(capacity, weight - 1, -1):
            best[c] = max(best[c], best[c - weight] + value)
    return best[capacity]

items = [(12, 4), (2, 2), (1, 1), (1, 2), (4, 10)]
print(knapsack(items, 15))
