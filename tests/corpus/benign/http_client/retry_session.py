# expect: BENIGN category: http_client
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

session = requests.Session()
session.mount("https://", HTTPAdapter(max_retries=Retry(total=5, backoff_factor=0.5, status_forcelist=[502, 503, 504])))
response = session.get("https://httpbin.org/status/200", timeout=10)
print(response.status_code)
