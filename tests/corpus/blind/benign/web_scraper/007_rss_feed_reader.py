import feedparser

FEEDS = [
    "https://planetpython.org/rss20.xml",
    "https://realpython.com/atom.xml",
]
for url in FEEDS:
    feed = feedparser.parse(url)
    print(f"== {feed.feed.get('title', url)}")
    for entry in feed.entries[:5]:
        print(" -", entry.title)
