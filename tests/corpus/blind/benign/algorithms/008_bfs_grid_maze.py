from collections import deque

MAZE = [
    "S.#.....",
    ".##.###.",
    "....#...",
    "#.#...#E",
]

def solve(maze):
    rows, cols = len(maze), len(maze[0])
    start = next((r, c) for r in range(rows) for c in range(cols) if maze[r][c] == "S")
    q, seen = deque([(start, 0)]), {start}
    while q:
        (r, c), d = q.popleft()
        if maze[r][c] == "E":
            return d
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and maze[nr][nc] != "#" and (nr, nc) not in seen:
                seen.add((nr, nc))
                q.append(((nr, nc), d + 1))
    return None

print("shortest path:", solve(MAZE))
