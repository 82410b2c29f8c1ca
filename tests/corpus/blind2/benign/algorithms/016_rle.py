from itertools import groupby

def encode(s):
    return "".join(f"{len(list(g))}{ch}" for ch, g in groupby(s))

def decode(s):
    import re
    return "".join(ch * int(n) for n, ch in re.findall(r"(\d+)(\D)", s))

msg = "WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWBWWWWWWWWWWWWWW"
enc = encode(msg)
print(enc)
assert decode(enc) == msg
