from collections import deque

def moving_average(values, window=3):
    q, s = deque(), 0.0
    for v in values:
        q.append(v); s += v
        if len(q) > window:
            s -= q.popleft()
        yield s / len(q)

prices = [10, 11, 12, 13, 12, 11, 15, 16]
print([round(x, 2) for x in moving_average(prices)])
