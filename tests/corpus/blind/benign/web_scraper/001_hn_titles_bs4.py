import requests
from bs4 import BeautifulSoup

resp = requests.get("https://news.ycombinator.com/", headers={"User-Agent": "Mozilla/5.0 (study script)"}, timeout=10)
soup = BeautifulSoup(resp.text, "html.parser")
for i, link in enumerate(soup.select("span.titleline > a"), 1):
    print(f"{i:>2}. {link.get_text()} ({link['href']})")
