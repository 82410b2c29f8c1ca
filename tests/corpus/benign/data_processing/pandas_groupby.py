# expect: BENIGN category: data_processing
import pandas as pd

df = pd.read_csv("orders.csv", parse_dates=["date"])
df["month"] = df["date"].dt.to_period("M")
summary = df.groupby(["month", "product"])["quantity"].sum().unstack(fill_value=0)
summary.to_csv("monthly_summary.csv")
print(summary.head())
