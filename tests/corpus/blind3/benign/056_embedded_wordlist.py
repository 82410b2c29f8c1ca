import base64
import random
import zlib

WORDS = (
    'eNodzWEKhTAMA+Cr5GrdVqTYtXu1U/T0zvcr8JEQGkMZIScHjnRjVPXZ0Onz'
    'lG25cneDVybDEDLHb1Lkg/C6c+IQ/eY5VQZOcV12iapfuPkfD5cgUC+rVkLa'
    'tm7ImvIL+9ov6w=='
)


def load_words():
    return zlib.decompress(base64.b64decode(WORDS)).decode().split()


def passphrase(rng, n=4):
    words = load_words()
    return "-".join(rng.choice(words) for _ in range(n))


if __name__ == "__main__":
    words = load_words()
    print(len(words), "words, e.g.", words[:5])
    rng = random.Random(7)
    for _ in range(3):
        print(passphrase(rng))
