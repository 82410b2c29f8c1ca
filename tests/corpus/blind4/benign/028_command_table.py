"""A to-do list driven by a command table mapping words to functions."""

TODOS = []


def add(*words):
    TODOS.append(" ".join(words))


def done(index):
    TODOS.pop(int(index))


def show():
    for i, t in enumerate(TODOS):
        print(i, t)


COMMANDS = {"add": add, "done": done, "show": show}

SCRIPT = """
add buy milk
add write report
add call mum
done 1
show
"""


def main():
    for line in SCRIPT.strip().splitlines():
        cmd, *args = line.split()
        COMMANDS[cmd](*args)


if __name__ == "__main__":
    main()
