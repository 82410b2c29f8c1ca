"""Create simple exception classes dynamically with type()."""

ERRORS = {"NotFound": 404, "Forbidden": 403, "Conflict": 409}


def build_errors(spec):
    classes = {}
    for name, status in spec.items():
        classes[name] = type(name + "Error", (Exception,), {"status": status, "__doc__": f"HTTP {status}"})
    return classes


def main():
    errs = build_errors(ERRORS)
    for name, cls in errs.items():
        try:
            raise cls("example")
        except Exception as exc:
            print(type(exc).__name__, exc.status, cls.__doc__)


if __name__ == "__main__":
    main()
