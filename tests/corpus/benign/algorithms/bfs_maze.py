# expect: BENIGN category: algorithms
from collections import deque

MAZE = ["S.#.....", ".##.###.", "....#...", ".##...#E"]

def solve(maze):
    rows, cols = len(maze), len(maze[0])
    start = next((r, c) for r in range(rows) for c in range(cols) if maze[r][c] == "S")
    queue, seen = deque([(start, 0)]), {start}
    while queue:
        (r, c), steps = queue.popleft()
        if maze[r][c] == "E":
            return steps
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and maze[nr][nc] != "#" and (nr, nc) not in seen:
                seen.add((nr, nc))
                queue.append(((nr, nc), steps + 1))
    return None

print(solve(MAZE))
