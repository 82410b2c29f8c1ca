import shutil
import tempfile
import urllib.request

URL = "https://www.python.org/static/img/python-logo.png"
with urllib.request.urlopen(URL) as resp, tempfile.NamedTemporaryFile(delete=False) as tmp:
    shutil.copyfileobj(resp, tmp)
shutil.move(tmp.name, "python-logo.png")
print("saved python-logo.png")
