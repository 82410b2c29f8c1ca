import codecs
import string


def caesar(text, shift):
    lower = string.ascii_lowercase
    upper = string.ascii_uppercase
    table = str.maketrans(lower + upper, lower[shift:] + lower[:shift] + upper[shift:] + upper[:shift])
    return text.translate(table)


def crack(cipher, crib):
    for shift in range(26):
        guess = caesar(cipher, -shift % 26)
        if crib in guess:
            return shift, guess
    return None


if __name__ == "__main__":
    secret = "Meet me at the old oak tree"
    enc = caesar(secret, 11)
    print("caesar:", enc)
    print("cracked:", crack(enc, "oak"))
    r = codecs.encode(secret, "rot_13")
    print("rot13:", r, "->", codecs.decode(r, "rot_13"))
    print("hex:", secret[:4].encode().hex(), bytes.fromhex("4d656574").decode())
