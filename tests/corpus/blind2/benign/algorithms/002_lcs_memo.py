from functools import lru_cache

def lcs(a: str, b: str) -> int:
    @lru_cache(maxsize=None)
    def go(i, j):
        if i == len(a) or j == len(b):
            return 0
        if a[i] == b[j]:
            return 1 + go(i + 1, j + 1)
        return max(go(i + 1, j), go(i, j + 1))
    return go(0, 0)

print(lcs("AGGTAB", "GXTXAYB"))  # 4
