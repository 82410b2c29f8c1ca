import datetime
import decimal
from functools import singledispatch


@singledispatch
def render(value):
    return repr(value)


@render.register
def _(value: bool):
    return "yes" if value else "no"


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
@render.register(tuple)
def _(value):
    return ", ".join(render(v) for v in value)


if __name__ == "__main__":
    row = [True, 12345.678, decimal.Decimal("9.5"), datetime.date(2024, 3, 1), ("a", 1), None]
    for v in row:
        print(type(v).__name__.ljust(8), render(v))
    print(render.dispatch(bool).__name__, sorted(t.__name__ for t in render.registry))
