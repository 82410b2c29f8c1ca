import os
import shutil

cols, rows = shutil.get_terminal_size()
print(f"terminal: {os.environ.get('TERM', '?')} {cols}x{rows}")
print("editor:", os.environ.get("EDITOR") or os.environ.get("VISUAL") or "not set")
print("lang:", os.environ.get("LANG", "C"))
