import unicodedata
import re

def slugify(value):
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", value).strip().lower())

titles = ["Crème brûlée recipe", "Ten Tips for Python!", "Ünïcödé   spaces"]
for t in titles:
    print(f"{t!r:35} -> {slugify(t)}  |  {t.title()}")
