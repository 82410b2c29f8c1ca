"""Undo-log for a batch of in-memory edits using contextlib.ExitStack callbacks."""
import contextlib

DOC = {"title": "Draft", "words": 100}


def main():
    with contextlib.ExitStack() as stack:
        for key, value in [("title", "Final"), ("words", 250)]:
            old = DOC[key]
            DOC[key] = value
            stack.callback(DOC.__setitem__, key, old)
        print("during:", DOC)
        if DOC["words"] > 200:
            print("too long, rolling back")
        else:
            stack.pop_all()
    print("after:", DOC)


if __name__ == "__main__":
    main()
