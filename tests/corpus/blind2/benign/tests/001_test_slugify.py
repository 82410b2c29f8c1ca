import re
import pytest

def slugify(s):
    s = re.sub(r"[^\w\s-]", "", s.lower())
    return re.sub(r"[\s_-]+", "-", s).strip("-")

@pytest.mark.parametrize("inp,out", [
    ("Hello World", "hello-world"),
    ("  Trim me ", "trim-me"),
    ("a_b-c", "a-b-c"),
])
def test_slugify(inp, out):
    assert slugify(inp) == out
