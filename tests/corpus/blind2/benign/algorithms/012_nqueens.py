def solve(n):
    sols = []
    cols, d1, d2 = set(), set(), set()
    board = []
    def place(r):
        if r == n:
            sols.append(board[:])
            return
        for c in range(n):
            if c in cols or r - c in d1 or r + c in d2:
                continue
            cols.add(c); d1.add(r - c); d2.add(r + c); board.append(c)
            place(r + 1)
            cols.remove(c); d1.remove(r - c); d2.remove(r + c); board.pop()
    place(0)
    return sols

print(len(solve(8)), "solutions for 8 queens")
