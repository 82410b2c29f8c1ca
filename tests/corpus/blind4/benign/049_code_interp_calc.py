"""Teaching calculator: runs example lines in a code.InteractiveInterpreter with a captured stdout."""
import code
import contextlib
import io

LESSON = ["x = 6", "y = 7", "x * y", "sum(range(x))", "print('done')"]


def main():
    interp = code.InteractiveInterpreter(locals={})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for line in LESSON:
            interp.runsource(line)
    print(out.getvalue().split())


if __name__ == "__main__":
    main()
