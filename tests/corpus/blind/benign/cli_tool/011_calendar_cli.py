import argparse
import calendar
import datetime

today = datetime.date.today()
ap = argparse.ArgumentParser()
ap.add_argument("year", type=int, nargs="?", default=today.year)
ap.add_argument("month", type=int, nargs="?", default=today.month)
a = ap.parse_args()
calendar.setfirstweekday(calendar.MONDAY)
print(calendar.month(a.year, a.month))
