import code
import contextlib
import io

LESSON = [
    "x = 6",
    "y = 7",
    "x * y",
    "def square(n):",
    "    return n * n",
    "",
    "[square(i) for i in range(5)]",
    "1 / 0",
]


if __name__ == "__main__":
    interp = code.InteractiveInterpreter(locals={})
    out = io.StringIO()
    buffer = []
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        for line in LESSON:
            buffer.append(line)
            more = interp.runsource("\n".join(buffer), "<lesson>")
            if not more:
                buffer.clear()
    for line in out.getvalue().splitlines():
        print("|", line)
