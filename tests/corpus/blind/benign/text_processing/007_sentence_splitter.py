import re

TEXT = """Dr. Smith arrived at 5 p.m. He was late. Was the train delayed? Yes! It was."""
ABBR = {"dr.", "mr.", "mrs.", "p.m.", "a.m.", "e.g.", "i.e."}

sentences, current = [], []
for token in TEXT.split():
    current.append(token)
    if re.search(r"[.!?]$", token) and token.lower() not in ABBR:
        sentences.append(" ".join(current))
        current = []
if current:
    sentences.append(" ".join(current))
for s in sentences:
    print("-", s)
