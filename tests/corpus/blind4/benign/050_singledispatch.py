"""Render values differently by type with functools.singledispatch."""
import datetime
import decimal
import functools


@functools.singledispatch
def render(value):
    return repr(value)


@render.register
def _(value: float):
    return f"{value:,.2f}"


@render.register
def _(value: decimal.Decimal):
    return f"{value:.2f} EUR"


@render.register
def _(value: datetime.date):
    return value.strftime("%d %b %Y")


@render.register(list)
def _(value):
    return "[" + "; ".join(render(v) for v in value) + "]"


def main():
    print(render([1234.5, decimal.Decimal("9.5"), datetime.date(2024, 2, 29), "text"]))


if __name__ == "__main__":
    main()
