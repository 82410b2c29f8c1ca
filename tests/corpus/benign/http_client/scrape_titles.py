# expect: BENIGN category: http_client
import requests
from bs4 import BeautifulSoup

page = requests.get("https://news.ycombinator.com", timeout=10)
soup = BeautifulSoup(page.text, "html.parser")
for anchor in soup.select(".titleline > a")[:10]:
    print(anchor.get_text(), "->", anchor["href"])
