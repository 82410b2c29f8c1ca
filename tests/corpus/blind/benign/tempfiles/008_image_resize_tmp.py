import tempfile
from PIL import Image

img = Image.new("RGB", (800, 600), "steelblue")
with tempfile.NamedTemporaryFile(suffix=".png") as tmp:
    img.save(tmp.name)
    with Image.open(tmp.name) as loaded:
        thumb = loaded.resize((200, 150))
        print(thumb.size, thumb.mode)
