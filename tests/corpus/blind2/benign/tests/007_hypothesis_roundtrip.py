import base64
from hypothesis import given, strategies as st

@given(st.binary())
def test_b64_roundtrip(data):
    assert base64.b64decode(base64.b64encode(data)) == data

@given(st.lists(st.integers()))
def test_sort_idempotent(xs):
    assert sorted(sorted(xs)) == sorted(xs)
