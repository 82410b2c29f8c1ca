import argparse
from collections import Counter

def main():
    ap = argparse.ArgumentParser(description="Count words in a text file")
    ap.add_argument("file")
    ap.add_argument("-n", "--top", type=int, default=10)
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as f:
        words = f.read().lower().split()
    for word, count in Counter(words).most_common(args.top):
        print(f"{count:6d}  {word}")

if __name__ == "__main__":
    main()
