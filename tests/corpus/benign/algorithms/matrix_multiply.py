# expect: BENIGN category: algorithms
def multiply(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]

identity = [[1, 0], [0, 1]]
m = [[1, 2], [3, 4]]
assert multiply(m, identity) == m
print(multiply(m, m))
