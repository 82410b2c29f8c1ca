# expect: BENIGN category: algorithms
def solve(n, row=0, cols=(), diag1=(), diag2=()):
    if row == n:
        return 1
    count = 0
    for col in range(n):
        if col not in cols and row + col not in diag1 and row - col not in diag2:
            count += solve(n, row + 1, cols + (col,), diag1 + (row + col,), diag2 + (row - col,))
    return count

print(solve(8))
