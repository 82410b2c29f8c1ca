from collections import Counter

words = [w.strip() for w in open("words5.txt") if len(w.strip()) == 5]

def score(guess, answer):
    res = ["b"] * 5
    remaining = Counter(a for g, a in zip(guess, answer) if g != a)
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            res[i] = "g"
        elif remaining[g]:
            res[i] = "y"
            remaining[g] -= 1
    return "".join(res)

cands = words
while len(cands) > 1:
    guess = cands[0]
    fb = input(f"guess {guess}, feedback (g/y/b): ").strip()
    cands = [w for w in cands if score(guess, w) == fb]
print("answer:", cands)
