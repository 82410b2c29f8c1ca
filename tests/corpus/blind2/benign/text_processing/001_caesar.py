import string

def caesar(text, shift):
    lower = string.ascii_lowercase
    upper = string.ascii_uppercase
    table = str.maketrans(lower + upper,
                          lower[shift:] + lower[:shift] + upper[shift:] + upper[:shift])
    return text.translate(table)

msg = "Attack at dawn"
enc = caesar(msg, 3)
print(enc, "->", caesar(enc, -3))
