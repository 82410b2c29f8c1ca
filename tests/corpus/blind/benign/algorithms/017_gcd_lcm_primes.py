from math import gcd
from functools import reduce

def lcm(a, b):
    return a * b // gcd(a, b)

def factorize(n):
    f, d = [], 2
    while d * d <= n:
        while n % d == 0:
            f.append(d)
            n //= d
        d += 1
    if n > 1:
        f.append(n)
    return f

print(reduce(lcm, range(1, 21)))
print(factorize(600851475143))
