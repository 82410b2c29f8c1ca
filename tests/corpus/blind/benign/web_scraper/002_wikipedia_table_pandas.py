import pandas as pd

url = "https://en.wikipedia.org/wiki/List_of_countries_by_population_(United_Nations)"
tables = pd.read_html(url)
df = tables[0]
print(df.head(15))
df.to_csv("population.csv", index=False)
