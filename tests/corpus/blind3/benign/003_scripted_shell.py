import cmd
import io


class TodoShell(cmd.Cmd):
    prompt = "todo> "

    def __init__(self, out):
        super().__init__(stdout=out)
        self.items = []

    def do_add(self, arg):
        self.items.append(arg)
        self.stdout.write(f"added {arg!r}\n")

    def do_list(self, arg):
        for i, item in enumerate(self.items, 1):
            self.stdout.write(f"{i}. {item}\n")

    def do_done(self, arg):
        removed = self.items.pop(int(arg) - 1)
        self.stdout.write(f"completed {removed!r}\n")

    def default(self, line):
        self.stdout.write(f"unknown command: {line}\n")


if __name__ == "__main__":
    out = io.StringIO()
    shell = TodoShell(out)
    for line in ["add buy milk", "add write report", "list", "done 1", "list", "fly away"]:
        shell.onecmd(line)
    print(out.getvalue(), end="")
    print("handler for 'add':", getattr(shell, "do_" + "add").__name__)
