import re
import urllib.request

html = urllib.request.urlopen("https://wttr.in/Berlin?format=3").read().decode()
print(html.strip())
m = re.search(r"([+-]?\d+)°C", html)
if m:
    print("temperature:", int(m.group(1)))
