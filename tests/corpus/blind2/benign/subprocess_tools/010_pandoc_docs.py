import subprocess
from pathlib import Path

out = Path("build/html")
out.mkdir(parents=True, exist_ok=True)
for md in Path("docs").glob("*.md"):
    html = out / md.with_suffix(".html").name
    subprocess.run(["pandoc", str(md), "-s", "-o", str(html)], check=True)
    print(md, "->", html)
