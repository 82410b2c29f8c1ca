import random

W, H = 15, 8
grid = [["#"] * (2 * W + 1) for _ in range(2 * H + 1)]

def carve(x, y):
    grid[2 * y + 1][2 * x + 1] = " "
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    random.shuffle(dirs)
    for dx, dy in dirs:
        nx, ny = x + dx, y + dy
        if 0 <= nx < W and 0 <= ny < H and grid[2 * ny + 1][2 * nx + 1] == "#":
            grid[2 * y + 1 + dy][2 * x + 1 + dx] = " "
            carve(nx, ny)

carve(0, 0)
print("\n".join("".join(r) for r in grid))
