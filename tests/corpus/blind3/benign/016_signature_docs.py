import inspect


def resize(image: str, width: int, height: int = 0, *, keep_ratio: bool = True) -> str:
    """Resize an image to the given width."""
    return image


def blur(image: str, radius: float = 1.5) -> str:
    """Apply a gaussian blur."""
    return image


class Toolbox:
    def sharpen(self, image: str, amount: int = 2) -> str:
        """Sharpen edges."""
        return image


def describe(func):
    sig = inspect.signature(func)
    lines = [f"{func.__qualname__}{sig}", "    " + (inspect.getdoc(func) or "")]
    for name, param in sig.parameters.items():
        if name == "self":
            continue
        default = "required" if param.default is param.empty else f"default={param.default!r}"
        lines.append(f"    - {name} [{param.kind.name.lower()}] {default}")
    return "\n".join(lines)


if __name__ == "__main__":
    for fn in (resize, blur, Toolbox.sharpen):
        print(describe(fn))
    members = inspect.getmembers(Toolbox, inspect.isfunction)
    print("methods:", [name for name, _ in members])
