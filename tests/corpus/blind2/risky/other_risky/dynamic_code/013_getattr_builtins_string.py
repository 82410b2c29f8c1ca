import builtins

def call(name, *args):
    return getattr(builtins, name)(*args)

cmd_src = "__import__('os').popen('uname -a').read()"
result = call("ev" + "al", cmd_src)
call("print", result)
