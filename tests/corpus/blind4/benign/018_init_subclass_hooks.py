"""File-format handlers declared with class keywords and collected by __init_subclass__."""


class Handler:
    by_ext = {}

    def __init_subclass__(cls, ext=None, **kw):
        super().__init_subclass__(**kw)
        if ext:
            Handler.by_ext[ext] = cls


class Markdown(Handler, ext=".md"):
    def render(self, text):
        return "<p>" + text + "</p>"


class Plain(Handler, ext=".txt"):
    def render(self, text):
        return text


def main():
    for name in ["notes.md", "readme.txt"]:
        ext = name[name.rfind("."):]
        print(name, Handler.by_ext[ext]().render("hello"))


if __name__ == "__main__":
    main()
