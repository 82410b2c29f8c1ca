# expect: BENIGN category: algorithms
import string

def caesar(text: str, shift: int) -> str:
    lower, upper = string.ascii_lowercase, string.ascii_uppercase
    table = str.maketrans(lower + upper, lower[shift:] + lower[:shift] + upper[shift:] + upper[:shift])
    return text.translate(table)

secret = caesar("Attack at dawn", 3)
print(secret, "->", caesar(secret, -3))
