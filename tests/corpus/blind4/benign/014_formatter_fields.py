"""Mail-merge using string.Formatter field resolution on nested data objects."""
import string
from types import SimpleNamespace as NS


class StrictFormatter(string.Formatter):
    def get_field(self, field_name, args, kwargs):
        if "__" in field_name:
            raise ValueError("private attribute access not allowed")
        return super().get_field(field_name, args, kwargs)


def main():
    f = StrictFormatter()
    customer = NS(name="Ada", address=NS(city="London"), orders=[{"id": 7}, {"id": 9}])
    print(f.format("Dear {c.name} of {c.address.city}, order #{c.orders[1][id]} shipped.", c=customer))
    value, key = f.get_field("c.address.city", (), {"c": customer})
    print("resolved", key, "->", value)
    try:
        f.format("{c.__class__}", c=customer)
    except ValueError as exc:
        print("blocked:", exc)


if __name__ == "__main__":
    main()
