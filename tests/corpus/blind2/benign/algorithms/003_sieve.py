"""Sieve of Eratosthenes -- classic exercise."""
import sys

def primes_upto(n):
    is_p = bytearray([1]) * (n + 1)
    is_p[0:2] = b"\x00\x00"
    for i in range(2, int(n ** 0.5) + 1):
        if is_p[i]:
            is_p[i * i::i] = bytearray(len(is_p[i * i::i]))
    return [i for i, v in enumerate(is_p) if v]

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 100
print(primes_upto(limit))
