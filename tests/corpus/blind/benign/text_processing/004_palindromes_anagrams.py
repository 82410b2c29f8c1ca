from collections import defaultdict

words = [w.strip().lower() for w in open("words.txt") if w.strip().isalpha()]
pals = [w for w in words if len(w) > 4 and w == w[::-1]]
groups = defaultdict(list)
for w in words:
    groups["".join(sorted(w))].append(w)
print("palindromes:", pals[:20])
print("biggest anagram set:", max(groups.values(), key=len))
