import difflib

with open("dictionary.txt") as f:
    vocab = [w.strip() for w in f if w.strip()]

while True:
    word = input("word (blank to quit): ").strip()
    if not word:
        break
    if word in vocab:
        print("ok")
    else:
        print("did you mean:", difflib.get_close_matches(word, vocab, n=3))
