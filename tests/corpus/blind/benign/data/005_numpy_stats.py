import numpy as np

rng = np.random.default_rng(42)
samples = rng.normal(loc=170, scale=8, size=10_000)
print(f"mean={samples.mean():.2f} std={samples.std():.2f}")
hist, edges = np.histogram(samples, bins=10)
for count, lo, hi in zip(hist, edges[:-1], edges[1:]):
    print(f"{lo:6.1f}-{hi:6.1f} {'*' * (count // 50)}")
