import os
import tempfile
import unittest

def write_lines(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines))

class IOTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def test_write(self):
        p = os.path.join(self.dir.name, "x.txt")
        write_lines(p, ["a", "b"])
        self.assertEqual(open(p).read(), "a\nb")

unittest.main()
