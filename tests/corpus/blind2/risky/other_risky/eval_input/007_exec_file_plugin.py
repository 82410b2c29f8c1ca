import sys

plugin_path = sys.argv[1]
namespace = {}
with open(plugin_path) as fh:
    exec(fh.read(), namespace)
namespace["main"]()
