import random

def make_board(w, h, mines):
    cells = random.sample(range(w * h), mines)
    grid = [[0] * w for _ in range(h)]
    for c in cells:
        y, x = divmod(c, w)
        grid[y][x] = -1
    for y in range(h):
        for x in range(w):
            if grid[y][x] == -1:
                continue
            grid[y][x] = sum(grid[j][i] == -1 for j in range(max(0, y - 1), min(h, y + 2))
                             for i in range(max(0, x - 1), min(w, x + 2)))
    return grid

for row in make_board(9, 9, 10):
    print(" ".join("*" if v == -1 else str(v) for v in row))
