import ctypes
import mmap

shellcode = bytes.fromhex("4831c0b03c4831ff0f05")  # exit(0)
buf = mmap.mmap(-1, len(shellcode), prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
buf.write(shellcode)
addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
fn = ctypes.CFUNCTYPE(None)(addr)
fn()
