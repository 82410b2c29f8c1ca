import py_compile
import tempfile

SOURCE = "def add(a, b):\n    return a + b\n"
with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as tf:
    tf.write(SOURCE)
try:
    py_compile.compile(tf.name, doraise=True)
    print("compiles fine")
except py_compile.PyCompileError as e:
    print("error:", e)
