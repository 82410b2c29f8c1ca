import string


def wheel(shift):
    return "".join(chr((ord(c) - 97 + shift) % 26 + 97) for c in string.ascii_lowercase)


def banner(word):
    codes = [ord(c) for c in word.upper()]
    top = " ".join(f"{c:>3}" for c in codes)
    mid = " ".join(f"{chr(c):>3}" for c in codes)
    return f"{top}\n{mid}"


if __name__ == "__main__":
    for s in (0, 3, 13):
        print(f"shift {s:>2}: {wheel(s)}")
    print(banner("python"))
    print("".join(map(chr, [72, 105, 33])))
