import string

def caesar(text, shift):
    lower, upper = string.ascii_lowercase, string.ascii_uppercase
    table = str.maketrans(lower + upper, lower[shift:] + lower[:shift] + upper[shift:] + upper[:shift])
    return text.translate(table)

msg = input("message: ")
k = int(input("shift: ")) % 26
enc = caesar(msg, k)
print("encrypted:", enc)
print("decrypted:", caesar(enc, -k % 26))
