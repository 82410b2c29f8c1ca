import subprocess
import sys

subprocess.check_call([sys.executable, "-m", "pip", "install",
                       "git+https://github.com/some-user/fastjsonx.git@main"])
import fastjsonx
print(fastjsonx.__version__)
