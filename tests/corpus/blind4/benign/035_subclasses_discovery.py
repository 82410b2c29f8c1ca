"""Discover validation rules by walking __subclasses__() of the rule base class."""


class Rule:
    def check(self, value):
        raise NotImplementedError


class NotEmpty(Rule):
    def check(self, value):
        return bool(value)


class MaxLen(Rule):
    limit = 10

    def check(self, value):
        return len(value) <= self.limit


class NoSpaces(Rule):
    def check(self, value):
        return " " not in value


def all_rules(base=Rule):
    for sub in base.__subclasses__():
        yield sub
        yield from all_rules(sub)


def main():
    rules = [cls() for cls in all_rules()]
    for value in ["ok", "", "has space", "waytoolongvalue"]:
        failed = [type(r).__name__ for r in rules if not r.check(value)]
        print(repr(value), failed or "valid")


if __name__ == "__main__":
    main()
