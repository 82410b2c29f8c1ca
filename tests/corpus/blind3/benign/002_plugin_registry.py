REGISTRY = {}


def plugin(name=None):
    def wrap(func):
        REGISTRY[name or func.__name__] = func
        return func
    return wrap


@plugin()
def upper(text):
    return text.upper()


@plugin("reverse")
def rev(text):
    return text[::-1]


@plugin()
def title(text):
    return text.title()


@plugin("count_vowels")
def vowels(text):
    return str(sum(ch in "aeiou" for ch in text.lower()))


def run(pipeline, text):
    for step in pipeline:
        text = REGISTRY[step](text)
    return text


if __name__ == "__main__":
    print(sorted(REGISTRY))
    print(run(["title", "reverse"], "hello plugin world"))
    print(run(["upper"], "shout"))
    print(run(["count_vowels"], "registry pattern"))
