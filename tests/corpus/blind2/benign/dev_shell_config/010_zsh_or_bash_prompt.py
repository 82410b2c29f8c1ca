import os

shell = os.path.basename(os.environ.get("SHELL", "sh"))
rc_names = {"bash": ".bashrc", "zsh": ".zshrc", "fish": ".config/fish/config.fish"}
rc = os.path.join(os.path.expanduser("~"), rc_names.get(shell, ".profile"))
print(f"shell: {shell}")
print(f"your rc file would be {rc} ({'exists' if os.path.exists(rc) else 'missing'})")
