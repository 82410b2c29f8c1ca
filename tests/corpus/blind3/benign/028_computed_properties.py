class Rectangle:
    def __init__(self, w, h):
        self.w, self.h = w, h


DERIVED = {
    "area": lambda s: s.w * s.h,
    "perimeter": lambda s: 2 * (s.w + s.h),
    "is_square": lambda s: s.w == s.h,
    "aspect": lambda s: round(s.w / s.h, 3),
}

for _name, _fn in DERIVED.items():
    setattr(Rectangle, _name, property(_fn, doc=f"computed {_name}"))


if __name__ == "__main__":
    for r in (Rectangle(3, 4), Rectangle(5, 5)):
        print({name: getattr(r, name) for name in DERIVED})
    print(Rectangle.area.__doc__, isinstance(vars(Rectangle)["aspect"], property))
