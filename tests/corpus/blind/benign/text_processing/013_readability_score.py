import re
import sys

def syllables(word):
    groups = re.findall(r"[aeiouy]+", word.lower())
    return max(1, len(groups) - (word.lower().endswith("e")))

text = open(sys.argv[1]).read()
sentences = max(1, len(re.findall(r"[.!?]+", text)))
words = re.findall(r"[A-Za-z]+", text)
syl = sum(syllables(w) for w in words)
score = 206.835 - 1.015 * len(words) / sentences - 84.6 * syl / max(len(words), 1)
print(f"Flesch reading ease: {score:.1f}")
