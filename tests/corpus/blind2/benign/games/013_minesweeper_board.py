import random

def board(w=9, h=9, mines=10):
    cells = random.sample(range(w * h), mines)
    grid = [[0] * w for _ in range(h)]
    for c in cells:
        r, col = divmod(c, w)
        grid[r][col] = "*"
    for r in range(h):
        for c in range(w):
            if grid[r][c] == "*":
                continue
            grid[r][c] = sum(grid[rr][cc] == "*" for rr in range(max(0, r - 1), min(h, r + 2))
                             for cc in range(max(0, c - 1), min(w, c + 2)))
    return grid

for row in board():
    print(" ".join(str(x) for x in row))
