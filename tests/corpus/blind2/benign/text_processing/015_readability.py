import re
import sys

text = open(sys.argv[1]).read()
sentences = max(1, len(re.findall(r"[.!?]+", text)))
words = re.findall(r"[A-Za-z]+", text)
syll = sum(max(1, len(re.findall(r"[aeiouy]+", w.lower()))) for w in words)
score = 206.835 - 1.015 * (len(words) / sentences) - 84.6 * (syll / max(1, len(words)))
print(f"Flesch reading ease: {score:.1f}")
