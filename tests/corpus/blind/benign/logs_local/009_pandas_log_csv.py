import pandas as pd
import sys

df = pd.read_csv(sys.argv[1], parse_dates=["timestamp"])
df["hour"] = df["timestamp"].dt.hour
summary = df.groupby(["hour", "level"]).size().unstack(fill_value=0)
print(summary)
summary.to_csv("log_summary.csv")
