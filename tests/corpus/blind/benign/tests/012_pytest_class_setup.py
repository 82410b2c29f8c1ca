class Stack:
    def __init__(self):
        self._items = []

    def push(self, x):
        self._items.append(x)

    def pop(self):
        if not self._items:
            raise IndexError("empty")
        return self._items.pop()


class TestStack:
    def setup_method(self):
        self.s = Stack()

    def test_push_pop(self):
        self.s.push(1)
        self.s.push(2)
        assert self.s.pop() == 2

    def test_pop_empty(self):
        import pytest
        with pytest.raises(IndexError):
            self.s.pop()
