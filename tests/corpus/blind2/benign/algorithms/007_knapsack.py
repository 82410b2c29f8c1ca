def knapsack(items, capacity):
    """items: list of (weight, value)"""
    dp = [0] * (capacity + 1)
    for w, v in items:
        for c in range(capacity, w - 1, -1):
            dp[c] = max(dp[c], dp[c - w] + v)
    return dp[capacity]

items = [(1, 1), (3, 4), (4, 5), (5, 7)]
for cap in range(0, 10):
    print(cap, knapsack(items, cap))
