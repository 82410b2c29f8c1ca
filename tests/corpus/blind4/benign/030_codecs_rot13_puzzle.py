"""Puzzle hints hidden with ROT13 so players do not see them by accident."""
import codecs

HINTS = {1: "Gel ybbxvat haqre gur zng.", 2: "Gur nafjre vf n cevzr ahzore.", 3: "Pbhag gur jvaqbjf."}


def reveal(level):
    return codecs.decode(HINTS[level], "rot13")


def main():
    for level in HINTS:
        print(level, reveal(level))
    print(codecs.encode("Spoiler free!", "rot_13"))


if __name__ == "__main__":
    main()
