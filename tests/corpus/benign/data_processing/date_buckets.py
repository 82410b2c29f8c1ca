# expect: BENIGN category: data_processing
from collections import Counter
from datetime import datetime

events = [line.strip() for line in open("events.txt") if line.strip()]
by_weekday = Counter(datetime.fromisoformat(stamp).strftime("%A") for stamp in events)
for day in ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]:
    print(f"{day:<10} {'#' * by_weekday[day]}")
