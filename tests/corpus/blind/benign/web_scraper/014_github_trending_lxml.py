import requests
from lxml import html

tree = html.fromstring(requests.get("https://github.com/trending/python").content)
for repo in tree.xpath("//article[@class='Box-row']")[:10]:
    name = " ".join(repo.xpath(".//h2/a//text()")).split()
    stars = repo.xpath(".//a[contains(@href,'stargazers')]/text()")
    print("".join(name), stars[-1].strip() if stars else "?")
