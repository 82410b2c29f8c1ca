def mat_mult(a, b, mod):
    return [[sum(a[i][k] * b[k][j] for k in range(2)) % mod for j in range(2)] for i in range(2)]

def fib(n, mod=10**9 + 7):
    result = [[1, 0], [0, 1]]
    base = [[1, 1], [1, 0]]
    while n:
        if n & 1:
            result = mat_mult(result, base, mod)
        base = mat_mult(base, base, mod)
        n >>= 1
    return result[0][1]

print([fib(i) for i in range(15)])
print(fib(10**18))
