import urllib.robotparser
import urllib.request

BASE = "https://www.python.org"
rp = urllib.robotparser.RobotFileParser(BASE + "/robots.txt")
rp.read()
page = BASE + "/downloads/"
if rp.can_fetch("MyBot/1.0", page):
    html = urllib.request.urlopen(urllib.request.Request(page, headers={"User-Agent": "MyBot/1.0"})).read()
    print(len(html), "bytes fetched")
else:
    print("disallowed by robots.txt")
