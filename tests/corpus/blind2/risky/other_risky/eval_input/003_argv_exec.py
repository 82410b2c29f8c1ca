import sys

# run a snippet given on the command line
snippet = " ".join(sys.argv[1:])
exec(compile(snippet, "<argv>", "exec"))
