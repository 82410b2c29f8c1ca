import subprocess
from pathlib import Path

out = Path("site")
out.mkdir(exist_ok=True)
for md in Path("docs").glob("*.md"):
    subprocess.run(["pandoc", str(md), "-s", "-o", str(out / (md.stem + ".html"))], check=True)
print("rendered", len(list(out.glob("*.html"))), "pages")
