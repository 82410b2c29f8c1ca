from hypothesis import given, strategies as st


def run_length_encode(s):
    out = []
    for ch in s:
        if out and out[-1][0] == ch:
            out[-1][1] += 1
        else:
            out.append([ch, 1])
    return out


def decode(pairs):
    return "".join(ch * n for ch, n in pairs)


@given(st.text())
def test_roundtrip(s):
    assert decode(run_length_encode(s)) == s
