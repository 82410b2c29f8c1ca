import os
import pwd

shell = os.environ.get("SHELL") or pwd.getpwuid(os.getuid()).pw_shell
print("Your login shell is", os.path.basename(shell))
