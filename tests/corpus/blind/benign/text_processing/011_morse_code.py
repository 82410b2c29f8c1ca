MORSE = {
    "A": ".-", "B": "-...", "C": "-.-.", "D": "-..", "E": ".", "F": "..-.", "G": "--.", "H": "....",
    "I": "..", "J": ".---", "K": "-.-", "L": ".-..", "M": "--", "N": "-.", "O": "---", "P": ".--.",
    "Q": "--.-", "R": ".-.", "S": "...", "T": "-", "U": "..-", "V": "...-", "W": ".--", "X": "-..-",
    "Y": "-.--", "Z": "--..", " ": "/",
}
REVERSE = {v: k for k, v in MORSE.items()}

msg = input("text: ").upper()
code = " ".join(MORSE.get(c, "?") for c in msg)
print(code)
print("".join(REVERSE.get(c, "?") for c in code.split(" ")))
