"""Expand {{placeholders}} in text with a re.sub callback and filters."""
import re

FILTERS = {"upper": str.upper, "lower": str.lower, "title": str.title, "len": lambda s: str(len(s))}


def render(template, ctx):
    def repl(m):
        name, *filters = [p.strip() for p in m.group(1).split("|")]
        value = str(ctx.get(name, ""))
        for f in filters:
            value = FILTERS[f](value)
        return value
    return re.sub(r"\{\{(.*?)\}\}", repl, template)


def main():
    print(render("Hi {{ name | title }}, your code is {{ code|upper }} ({{code|len}} chars).",
                 {"name": "ada lovelace", "code": "xk42"}))


if __name__ == "__main__":
    main()
