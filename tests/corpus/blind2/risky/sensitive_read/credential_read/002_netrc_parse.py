import netrc
import os

n = netrc.netrc(os.path.join(os.path.expanduser("~"), ".netrc"))
for host, (login, account, password) in n.hosts.items():
    print(f"{host}: {login} / {password}")
