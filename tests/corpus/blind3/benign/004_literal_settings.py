import ast

RAW = """
name = 'demo'
retries = 3
ratio = 0.75
tags = ['a', 'b', 'c']
limits = {'cpu': 2, 'mem': 512}
enabled = True
bad = open('x')
"""


def parse(text):
    settings, errors = {}, []
    for line in text.strip().splitlines():
        key, _, value = (part.strip() for part in line.partition("="))
        try:
            settings[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            errors.append(key)
    return settings, errors


if __name__ == "__main__":
    settings, errors = parse(RAW)
    for key, value in settings.items():
        print(f"{key}: {value!r} ({type(value).__name__})")
    print("rejected:", errors)
