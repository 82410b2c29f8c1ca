import pandas as pd

df = pd.read_csv("orders.csv", parse_dates=["order_date"])
monthly = df.groupby(df["order_date"].dt.to_period("M"))["total"].agg(["count", "sum", "mean"])
print(monthly.tail(12))
monthly.to_csv("monthly_summary.csv")
