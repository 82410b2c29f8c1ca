xs = [1, 2, 3, 4, 5, 6, 7, 8]
ys = [2.1, 3.9, 6.2, 8.1, 9.8, 12.2, 13.9, 16.1]

n = len(xs)
mx, my = sum(xs) / n, sum(ys) / n
slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
intercept = my - slope * mx
print(f"y = {slope:.3f}x + {intercept:.3f}")
for x in (9, 10):
    print(x, round(slope * x + intercept, 2))
