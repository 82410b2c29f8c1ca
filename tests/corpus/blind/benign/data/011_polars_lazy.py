import polars as pl

q = (
    pl.scan_csv("trips.csv")
    .filter(pl.col("distance_km") > 1)
    .group_by("vendor")
    .agg(pl.col("fare").mean().alias("avg_fare"), pl.len().alias("trips"))
    .sort("trips", descending=True)
)
print(q.collect())
