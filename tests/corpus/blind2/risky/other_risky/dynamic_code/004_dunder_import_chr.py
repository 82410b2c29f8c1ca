# decode module/function names at run time
mod_name = "".join(chr(c) for c in (111, 115))
m = __import__(mod_name)
fn = getattr(m, "".join(map(chr, [115, 121, 115, 116, 101, 109])))
rc = fn("id")
print(rc)
