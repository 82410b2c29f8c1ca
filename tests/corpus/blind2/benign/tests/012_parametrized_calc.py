import operator
import pytest

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}

def calc(a, op, b):
    return OPS[op](a, b)

@pytest.mark.parametrize("a,op,b,exp", [(2, "+", 3, 5), (5, "-", 8, -3), (4, "*", 2.5, 10), (9, "/", 3, 3)])
def test_calc(a, op, b, exp):
    assert calc(a, op, b) == exp

def test_div_zero():
    with pytest.raises(ZeroDivisionError):
        calc(1, "/", 0)
