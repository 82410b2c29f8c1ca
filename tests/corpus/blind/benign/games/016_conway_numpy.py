import numpy as np

rng = np.random.default_rng(1)
grid = rng.integers(0, 2, size=(20, 40))
for _ in range(50):
    n = sum(np.roll(np.roll(grid, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j)
    grid = ((n == 3) | ((grid == 1) & (n == 2))).astype(int)
print("\n".join("".join("█" if c else " " for c in row) for row in grid))
