import argparse

ap = argparse.ArgumentParser(description="body-mass index calculator")
ap.add_argument("weight_kg", type=float)
ap.add_argument("height_m", type=float)
a = ap.parse_args()
bmi = a.weight_kg / a.height_m ** 2
cat = "under" if bmi < 18.5 else "normal" if bmi < 25 else "over"
print(f"BMI {bmi:.1f} ({cat}weight)")
