from collections import deque

def moving_average(values, window=3):
    buf, total = deque(), 0.0
    for v in values:
        buf.append(v)
        total += v
        if len(buf) > window:
            total -= buf.popleft()
        yield total / len(buf)

prices = [10, 11, 12, 13, 12, 11, 15, 16, 18, 17]
print([round(x, 2) for x in moving_average(prices)])
