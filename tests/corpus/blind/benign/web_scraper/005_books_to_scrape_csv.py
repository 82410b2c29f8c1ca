import csv
import requests
from bs4 import BeautifulSoup

BASE = "https://books.toscrape.com/catalogue/page-{}.html"
with open("books.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["title", "price", "rating"])
    for page in range(1, 4):
        soup = BeautifulSoup(requests.get(BASE.format(page)).content, "html.parser")
        for art in soup.select("article.product_pod"):
            w.writerow([art.h3.a["title"], art.select_one(".price_color").text,
                        art.select_one("p.star-rating")["class"][1]])
