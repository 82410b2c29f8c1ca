# expect: BENIGN category: http_client
import requests

url = "https://example.com/archive.tar.gz"
with requests.get(url, stream=True, timeout=30) as response:
    response.raise_for_status()
    total = int(response.headers.get("content-length", 0))
    done = 0
    with open("archive.tar.gz", "wb") as handle:
        for chunk in response.iter_content(chunk_size=65536):
            handle.write(chunk)
            done += len(chunk)
            if total:
                print(f"\r{100 * done // total}%", end="")
print()
