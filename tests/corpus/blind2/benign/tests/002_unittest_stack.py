import unittest

class Stack:
    def __init__(self):
        self._items = []
    def push(self, x):
        self._items.append(x)
    def pop(self):
        return self._items.pop()
    def __len__(self):
        return len(self._items)

class StackTest(unittest.TestCase):
    def test_push_pop(self):
        s = Stack()
        s.push(1); s.push(2)
        self.assertEqual(s.pop(), 2)
        self.assertEqual(len(s), 1)

    def test_empty_pop(self):
        with self.assertRaises(IndexError):
            Stack().pop()

if __name__ == "__main__":
    unittest.main()
