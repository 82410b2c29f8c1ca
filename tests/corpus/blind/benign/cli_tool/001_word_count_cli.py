import argparse
import sys

ap = argparse.ArgumentParser(description="count lines, words and characters")
ap.add_argument("files", nargs="*", type=argparse.FileType("r"), default=[sys.stdin])
args = ap.parse_args()
for fh in args.files:
    text = fh.read()
    print(f"{text.count(chr(10)):>8}{len(text.split()):>8}{len(text):>8} {fh.name}")
