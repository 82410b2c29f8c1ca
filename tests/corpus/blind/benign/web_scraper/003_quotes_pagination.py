import time
import requests
from bs4 import BeautifulSoup

url = "https://quotes.toscrape.com/page/1/"
quotes = []
while url:
    soup = BeautifulSoup(requests.get(url, timeout=10).text, "lxml")
    for q in soup.select("div.quote"):
        quotes.append((q.select_one("span.text").text, q.select_one("small.author").text))
    nxt = soup.select_one("li.next > a")
    url = "https://quotes.toscrape.com" + nxt["href"] if nxt else None
    time.sleep(1)
print(len(quotes), "quotes")
