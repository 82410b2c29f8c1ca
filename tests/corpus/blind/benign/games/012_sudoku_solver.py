def solve(b):
    for i in range(81):
        if b[i] == 0:
            r, c = divmod(i, 9)
            used = {b[r * 9 + k] for k in range(9)} | {b[k * 9 + c] for k in range(9)} | {
                b[(r // 3 * 3 + dr) * 9 + c // 3 * 3 + dc] for dr in range(3) for dc in range(3)}
            for v in range(1, 10):
                if v not in used:
                    b[i] = v
                    if solve(b):
                        return True
            b[i] = 0
            return False
    return True

puzzle = [int(ch) for ch in "530070000600195000098000060800060003400803001700020006060000280000419005000080079"]
solve(puzzle)
for r in range(9):
    print(puzzle[r * 9:(r + 1) * 9])
