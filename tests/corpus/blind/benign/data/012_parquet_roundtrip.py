import pandas as pd

df = pd.DataFrame({"id": range(5), "name": list("abcde"), "score": [0.1, 0.5, 0.9, 0.3, 0.7]})
df.to_parquet("scores.parquet", index=False)
back = pd.read_parquet("scores.parquet")
print(back.describe())
print(back.equals(df))
