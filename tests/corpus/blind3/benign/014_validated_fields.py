class Field:
    def __init__(self, kind, minimum=None):
        self.kind = kind
        self.minimum = minimum

    def __set_name__(self, owner, name):
        self.name = name
        self.private = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return getattr(obj, self.private)

    def __set__(self, obj, value):
        if not isinstance(value, self.kind):
            raise TypeError(f"{self.name} must be {self.kind.__name__}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"{self.name} must be >= {self.minimum}")
        setattr(obj, self.private, value)


class Product:
    name = Field(str)
    price = Field(float, minimum=0.0)
    stock = Field(int, minimum=0)

    def __init__(self, name, price, stock):
        self.name, self.price, self.stock = name, price, stock


if __name__ == "__main__":
    p = Product("lamp", 19.5, 4)
    print(p.name, p.price, p.stock)
    for attr, value in [("price", -1.0), ("stock", "many")]:
        try:
            setattr(p, attr, value)
        except (TypeError, ValueError) as exc:
            print("error:", exc)
