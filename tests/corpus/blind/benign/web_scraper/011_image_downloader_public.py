import os
import requests
from bs4 import BeautifulSoup
from urllib.parse import urljoin

page = "https://commons.wikimedia.org/wiki/Category:Featured_pictures_of_birds"
os.makedirs("birds", exist_ok=True)
soup = BeautifulSoup(requests.get(page).text, "html.parser")
for i, img in enumerate(soup.select("img")[:10]):
    src = urljoin(page, img["src"])
    with open(os.path.join("birds", f"{i}.jpg"), "wb") as f:
        f.write(requests.get(src).content)
print("saved images")
