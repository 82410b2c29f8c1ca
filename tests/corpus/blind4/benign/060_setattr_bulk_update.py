"""Apply a dict of validated updates to an object with setattr/hasattr."""


class Profile:
    def __init__(self):
        self.display_name = "anon"
        self.language = "en"
        self.notifications = True


EDITABLE = {"display_name": str, "language": str, "notifications": bool}


def apply_updates(obj, updates):
    rejected = []
    for key, value in updates.items():
        if key in EDITABLE and hasattr(obj, key) and isinstance(value, EDITABLE[key]):
            setattr(obj, key, value)
        else:
            rejected.append(key)
    return rejected


def main():
    p = Profile()
    print("rejected:", apply_updates(p, {"display_name": "Ada", "language": "fr", "is_admin": True, "notifications": "no"}))
    print(vars(p))


if __name__ == "__main__":
    main()
