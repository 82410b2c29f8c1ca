import time
from zeroconf import ServiceBrowser, Zeroconf


class Listener:
    def add_service(self, zc, type_, name):
        info = zc.get_service_info(type_, name)
        print("found", name, info.parsed_addresses() if info else "")

    def remove_service(self, zc, type_, name):
        print("gone", name)

    def update_service(self, zc, type_, name):
        pass


zc = Zeroconf()
ServiceBrowser(zc, "_http._tcp.local.", Listener())
time.sleep(5)
zc.close()
