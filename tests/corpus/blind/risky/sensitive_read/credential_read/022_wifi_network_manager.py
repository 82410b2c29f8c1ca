import configparser
import glob

for conn in glob.glob("/etc/NetworkManager/system-connections/*"):
    cp = configparser.ConfigParser(interpolation=None)
    cp.read(conn)
    ssid = cp.get("wifi", "ssid", fallback="?")
    psk = cp.get("wifi-security", "psk", fallback=None)
    print(ssid, psk)
