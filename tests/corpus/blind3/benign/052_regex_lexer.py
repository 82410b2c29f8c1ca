import re


class Lexer:
    SPEC = [("NUMBER", r"\d+(?:\.\d+)?"), ("NAME", r"[A-Za-z_]\w*"), ("OP", r"[-+*/=()]"), ("SKIP", r"\s+"), ("ERROR", r".")]

    def __init__(self):
        self.regex = re.compile("|".join(f"(?P<{name}>{pat})" for name, pat in self.SPEC))

    def t_NUMBER(self, text):
        return float(text) if "." in text else int(text)

    def t_NAME(self, text):
        return text

    def t_OP(self, text):
        return text

    def t_ERROR(self, text):
        raise SyntaxError(f"bad character {text!r}")

    def tokens(self, source):
        for m in self.regex.finditer(source):
            kind = m.lastgroup
            if kind == "SKIP":
                continue
            yield kind, getattr(self, "t_" + kind)(m.group())


if __name__ == "__main__":
    lexer = Lexer()
    print(list(lexer.tokens("total = price * 1.2 + (tax - 3)")))
    try:
        list(lexer.tokens("a $ b"))
    except SyntaxError as exc:
        print(exc)
