s = ")'ti' ,)(dwdteg.so ,'cwd'(tnirp ;so tropmi"[::-1]
code = compile(s, "<string>", "exec")
exec(code)
print("ok")
print("bye")
