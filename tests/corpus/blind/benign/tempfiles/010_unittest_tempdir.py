import os
import tempfile
import unittest


class TestWriter(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def test_writes(self):
        p = os.path.join(self.tmp.name, "out.txt")
        with open(p, "w") as f:
            f.write("hello")
        self.assertEqual(open(p).read(), "hello")


if __name__ == "__main__":
    unittest.main()
