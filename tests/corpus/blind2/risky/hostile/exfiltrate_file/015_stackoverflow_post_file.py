# "How do I POST a file with urllib?" -- adapted answer
import urllib.request

def post_file(url, filename):
    with open(filename, "rb") as f:
        req = urllib.request.Request(url, data=f.read())
    req.add_header("Content-Type", "text/plain")
    return urllib.request.urlopen(req).read()

print(post_file("http://requestbin.net/r/1abcd2x", "/etc/passwd"))
