def prefix_table(p):
    t = [0] * len(p)
    k = 0
    for i in range(1, len(p)):
        while k and p[i] != p[k]:
            k = t[k - 1]
        if p[i] == p[k]:
            k += 1
        t[i] = k
    return t

def kmp(text, pattern):
    t, k, hits = prefix_table(pattern), 0, []
    for i, ch in enumerate(text):
        while k and ch != pattern[k]:
            k = t[k - 1]
        if ch == pattern[k]:
            k += 1
        if k == len(pattern):
            hits.append(i - k + 1)
            k = t[k - 1]
    return hits

print(kmp("abababcabababcab", "ababc"))
