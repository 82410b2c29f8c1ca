from datetime import date
from freezegun import freeze_time


def days_until_new_year():
    today = date.today()
    return (date(today.year + 1, 1, 1) - today).days


@freeze_time("2024-12-25")
def test_christmas():
    assert days_until_new_year() == 7


@freeze_time("2024-01-01")
def test_new_year_day():
    assert days_until_new_year() == 366
