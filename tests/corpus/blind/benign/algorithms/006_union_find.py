class DSU:
    def __init__(self, n):
        self.parent = list(range(n))
        self.rank = [0] * n

    def find(self, x):
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.rank[ra] < self.rank[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.rank[ra] += self.rank[ra] == self.rank[rb]
        return True


edges = [(0, 1, 4), (1, 2, 1), (0, 2, 3), (2, 3, 2), (3, 4, 7), (1, 4, 5)]
d = DSU(5)
mst = [e for e in sorted(edges, key=lambda e: e[2]) if d.union(e[0], e[1])]
print("MST:", mst, "weight", sum(e[2] for e in mst))
