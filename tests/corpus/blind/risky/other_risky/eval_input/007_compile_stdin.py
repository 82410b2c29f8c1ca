import sys

source = sys.stdin.read()
code = compile(source, "<stdin>", "exec")
namespace = {}
exec(code, namespace)
print("ok", list(namespace)[:5])
