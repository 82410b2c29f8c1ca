import argparse

FACTORS = {"km": 1000, "m": 1, "cm": 0.01, "mi": 1609.344, "ft": 0.3048, "in": 0.0254}

p = argparse.ArgumentParser()
p.add_argument("value", type=float)
p.add_argument("src", choices=FACTORS)
p.add_argument("dst", choices=FACTORS)
a = p.parse_args()
print(f"{a.value} {a.src} = {a.value * FACTORS[a.src] / FACTORS[a.dst]:.4f} {a.dst}")
