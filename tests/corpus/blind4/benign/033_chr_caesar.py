"""Caesar cipher with chr/ord arithmetic, plus a brute-force decoder."""


def shift(text, k):
    out = []
    for ch in text:
        if ch.isascii() and ch.isalpha():
            base = ord("a") if ch.islower() else ord("A")
            out.append(chr((ord(ch) - base + k) % 26 + base))
        else:
            out.append(ch)
    return "".join(out)


def main():
    secret = shift("Meet at the library", 7)
    print(secret)
    for k in range(26):
        guess = shift(secret, -k)
        if "library" in guess:
            print("key", k, "->", guess)


if __name__ == "__main__":
    main()
