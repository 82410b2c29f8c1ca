import pytest


def slugify(s: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in s.lower()).split())


@pytest.mark.parametrize("raw,expected", [
    ("Hello World", "hello-world"),
    ("  spaces  ", "spaces"),
    ("C'est la vie!", "c-est-la-vie"),
    ("", ""),
])
def test_slugify(raw, expected):
    assert slugify(raw) == expected
