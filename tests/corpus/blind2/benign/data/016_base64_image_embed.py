import base64
import sys
import mimetypes

path = sys.argv[1]
mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
with open(path, "rb") as f:
    data = base64.b64encode(f.read()).decode()
print(f'<img src="data:{mime};base64,{data[:60]}..." />')
print("total base64 length:", len(data))
