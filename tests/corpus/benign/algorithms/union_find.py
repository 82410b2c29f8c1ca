# expect: BENIGN category: algorithms
class DisjointSet:
    def __init__(self, n):
        self.parent = list(range(n))

    def find(self, x):
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)

ds = DisjointSet(6)
for a, b in [(0, 1), (1, 2), (3, 4)]:
    ds.union(a, b)
print(len({ds.find(i) for i in range(6)}), "groups")
