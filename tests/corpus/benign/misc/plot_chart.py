# expect: BENIGN category: misc
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

months = ["Jan", "Feb", "Mar", "Apr"]
revenue = [120, 135, 150, 170]
plt.bar(months, revenue, color="steelblue")
plt.title("Revenue")
plt.savefig("revenue.png", dpi=120)
