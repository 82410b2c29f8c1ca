import string


class SafeFormatter(string.Formatter):
    def get_field(self, field_name, args, kwargs):
        if "." in field_name or "[" in field_name or field_name.startswith("_"):
            raise ValueError(f"attribute access not allowed: {field_name}")
        return super().get_field(field_name, args, kwargs)

    def format_field(self, value, spec):
        if spec == "upper":
            return str(value).upper()
        return super().format_field(value, spec)


if __name__ == "__main__":
    fmt = SafeFormatter()
    print(fmt.format("Hello {name:upper}, you have {n:03d} messages", name="sam", n=7))
    for template in ["{user.__class__}", "{items[0]}"]:
        try:
            fmt.format(template, user="x", items=[1])
        except ValueError as exc:
            print("refused:", exc)
    print([f for _, f, _, _ in fmt.parse("a {x} b {y:>4}") if f])
