import time

W, H = 20, 10
cells = {(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)}  # glider

def step(live):
    counts = {}
    for x, y in live:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    k = ((x + dx) % W, (y + dy) % H)
                    counts[k] = counts.get(k, 0) + 1
    return {c for c, n in counts.items() if n == 3 or (n == 2 and c in live)}

for _ in range(30):
    print("\n".join("".join("#" if (x, y) in cells else "." for x in range(W)) for y in range(H)))
    print()
    cells = step(cells)
    time.sleep(0.1)
