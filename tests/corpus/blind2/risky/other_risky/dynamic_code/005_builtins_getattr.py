import builtins

b = vars(builtins)
runner = b["ex" + "ec"]
loader = getattr(builtins, "__imp" + "ort__")
src = bytes.fromhex("7072696e74282268656c6c6f2229").decode()
runner(src)
sock = loader("soc" + "ket")
print(sock.gethostname())
